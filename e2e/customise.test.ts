// Browser tests of customisation without code (spec §2.1 goal 1, §4.7, §4.9, §4.14): settings
// rendered from the server's schema, profiles, macros, titles by the lightweight model.
import { join } from 'node:path';
import type { RecordedRequest } from '@youyou/testing';
import { describe, expect, it } from 'vitest';
import { SCREENSHOTS, STEP_TIMEOUT, useWorkbenchSession } from './support/workbench-session.ts';
import { LOOKUP_TOOL } from './support/fake-model.ts';

const session = useWorkbenchSession();

interface ChatBody {
  temperature?: number;
  messages?: { role: string; content: unknown }[];
  tools?: { function: { name: string } }[];
}
const bodyOf = (request: RecordedRequest) => request.body as ChatBody;
const systemOf = (request: RecordedRequest) =>
  (bodyOf(request).messages ?? [])
    .filter((message) => message.role === 'system')
    .map((message) =>
      typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
    )
    .join('\n');
const userTextOf = (request: RecordedRequest) =>
  JSON.stringify(bodyOf(request).messages?.at(-1)?.content ?? '');

async function openSettings(section: string) {
  await session.page.getByRole('button', { name: 'Settings' }).last().click();
  const dialog = session.page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByRole('button', { name: section, exact: true }).click();
  return dialog;
}

async function closeSettings() {
  await session.page.getByRole('button', { name: 'Close settings' }).click();
}

/** The chat request the fake received whose last user message contains `text`. */
async function requestWith(text: string): Promise<RecordedRequest> {
  let found: RecordedRequest | undefined;
  await expect
    .poll(
      () => {
        found = session.stack.fake.chatRequests.find((request) => userTextOf(request).includes(text));
        return found !== undefined;
      },
      { timeout: STEP_TIMEOUT },
    )
    .toBe(true);
  return found as RecordedRequest;
}

describe('customising without code, in a browser', () => {
  it('a setting added on the server only appears in Preferences, with its effect and source layer, and works', async () => {
    const { settingsService } = session.stack.server.services;
    settingsService.registry.register({
      key: 'example.greeting',
      section: 'example',
      source: 'extension',
      source_id: 'example-extension',
      schema: { type: 'string', default: 'Hello', maxLength: 20, pattern: '^[A-Za-z ]*$' },
      effect: 'hot',
      secret: false,
      layers: ['user'],
      label: { en: 'Greeting of the example', 'zh-CN': '示例问候语' },
      help: { en: 'What the example extension says (letters only).', 'zh-CN': '示例扩展说的话（仅字母）。' },
    });
    const dialog = await openSettings('Preferences');
    const row = dialog.locator('[data-setting-key="example.greeting"]');
    await row.waitFor({ timeout: STEP_TIMEOUT });
    await expect.poll(() => row.getByTestId('setting-source').textContent()).toBe('From: Default');
    expect(await row.locator('.badge.effect-hot').textContent()).toBe('Applies now');
    expect(await row.textContent()).toContain('extension: example-extension');
    const input = row.getByLabel('Greeting of the example');
    expect(await input.inputValue()).toBe('Hello');
    await input.fill('Hi there');
    await input.press('Enter');
    await expect.poll(() => settingsService.value<string>('example.greeting')).toBe('Hi there');
    await expect.poll(() => row.getByTestId('setting-source').textContent()).toBe('From: User');
    // A value the schema refuses is a clear error, and nothing changes.
    await input.fill('Hi 42');
    await input.press('Enter');
    await row.getByRole('alert').waitFor({ timeout: STEP_TIMEOUT });
    expect(await settingsService.value<string>('example.greeting')).toBe('Hi there');
    // Reset: the default shows through again.
    await row.getByRole('button', { name: 'Reset' }).click();
    await expect.poll(() => settingsService.value<string>('example.greeting')).toBe('Hello');
    await expect.poll(() => row.getByTestId('setting-source').textContent()).toBe('From: Default');
    // Another tab's change arrives by the workbench event stream.
    await session.stack.client.writeSettings({
      layer: 'user',
      values: { 'example.greeting': 'From elsewhere' },
    });
    await expect.poll(() => input.inputValue(), { timeout: STEP_TIMEOUT }).toBe('From elsewhere');
    await dialog.locator('.ui-section[data-id="run"]').scrollIntoViewIfNeeded();
    await session.page.screenshot({ path: join(SCREENSHOTS, 'settings-preferences.png') });
    await closeSettings();
  }, 60_000);

  it('a profile with its own system prompt, temperature and tool deny list changes what the model receives, for its conversation only', async () => {
    const { page } = session;
    const dialog = await openSettings('Profiles');
    await dialog.getByRole('button', { name: 'New profile' }).click();
    const editor = dialog.getByRole('form', { name: 'Profile editor' });
    await editor.getByLabel('Name', { exact: true }).fill('Terse reviewer');
    await editor.getByLabel('System prompt').fill('You are the TERSE reviewer. Answer in one line.');
    await editor.getByLabel('Temperature').fill('0.25');
    await editor.getByLabel('Deny (hidden from the model)').fill(LOOKUP_TOOL);
    await page.screenshot({ path: join(SCREENSHOTS, 'profile-editor.png') });
    await editor.getByRole('button', { name: 'Save' }).click();
    await dialog.locator('[data-profile="Terse reviewer"]').waitFor({ timeout: STEP_TIMEOUT });
    await closeSettings();

    // The new-conversation flow: pick the profile, then send.
    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    await page.getByLabel('Profile of this conversation').selectOption({ label: 'Terse reviewer' });
    await page.getByTestId('composer-input').fill('hello from the reviewer');
    await page.getByTestId('composer-input').press('Enter');
    await session.answerEnds();
    expect(
      await page.getByLabel('Profile of this conversation').locator('option:checked').textContent(),
    ).toBe('Terse reviewer');
    await session.send('hello from the default');
    await session.answerEnds();

    const reviewed = await requestWith('hello from the reviewer');
    expect(systemOf(reviewed)).toContain('You are the TERSE reviewer.');
    expect(bodyOf(reviewed).temperature).toBe(0.25);
    expect((bodyOf(reviewed).tools ?? []).map((tool) => tool.function.name)).not.toContain(LOOKUP_TOOL);
    const plain = await requestWith('hello from the default');
    expect(systemOf(plain)).not.toContain('TERSE');
    expect(bodyOf(plain).temperature).toBeUndefined();
    expect((bodyOf(plain).tools ?? []).map((tool) => tool.function.name)).toContain(LOOKUP_TOOL);
  }, 90_000);

  it('a macro with two variables expands through its inline form in the composer', async () => {
    const { page } = session;
    const dialog = await openSettings('Commands & snippets');
    await dialog.getByRole('button', { name: 'New macro' }).click();
    const form = dialog.getByRole('form', { name: 'Macro' });
    await form.getByLabel('Name (typed after /)').fill('translate');
    await form.getByLabel('Description').fill('Translate a text');
    await form.getByLabel('Template').fill('Translate “{{text}}” into {{language}}.');
    expect(await form.textContent()).toContain('Variables asked for: text, language');
    await form.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('/translate').waitFor({ timeout: STEP_TIMEOUT });
    await closeSettings();

    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    const composer = page.getByTestId('composer-input');
    await composer.fill('/transl');
    await page.getByRole('option', { name: /\/translate/ }).waitFor({ timeout: STEP_TIMEOUT });
    await composer.press('Enter');
    const macroForm = page.getByRole('form', { name: 'Parameters of /translate' });
    await macroForm.getByLabel('text').fill('good morning');
    await macroForm.getByLabel('language').fill('French');
    await macroForm.getByRole('button', { name: 'Insert' }).click();
    await expect.poll(() => composer.inputValue()).toBe('Translate “good morning” into French.');
    await composer.press('Enter');
    await session.answerEnds();
    await requestWith('Translate “good morning” into French.');
  }, 60_000);

  it('a conversation’s title comes from the lightweight model chosen in Preferences', async () => {
    const { page } = session;
    const dialog = await openSettings('Preferences');
    const row = dialog.locator('[data-setting-key="models.lightweight"]');
    await row.getByLabel('Lightweight model').selectOption('fake/fake-model');
    await expect.poll(() => row.getByTestId('setting-source').textContent()).toBe('From: User');
    await closeSettings();
    await session.send('Which vegetables should I plant next to tomatoes, and when?');
    await session.answerEnds();
    await page
      .getByRole('navigation', { name: 'Projects and conversations' })
      .getByText('Garden planning', { exact: true })
      .waitFor({ timeout: STEP_TIMEOUT });
    await expect.poll(() => page.locator('.conversation-heading').textContent()).toBe('Garden planning');
    await session.stack.client.resetSetting('models.lightweight', { layer: 'user' });
  }, 60_000);
});
