// Browser tests of settings: model providers, the components manager, appearance and language.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openBrowser } from './support/browser.ts';
import { SCREENSHOTS, STEP_TIMEOUT, useWorkbenchSession } from './support/workbench-session.ts';

const session = useWorkbenchSession();
const lastAnswer = () => session.lastAnswer();

async function openSettings(section: string) {
  await session.page.getByRole('button', { name: 'Settings' }).last().click();
  const dialog = session.page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByRole('button', { name: section }).click();
  return dialog;
}

describe('settings in a browser', () => {
  it('adds a provider from a preset, tests the connection and picks the default model', async () => {
    const dialog = await openSettings('Models');
    await dialog.getByRole('button', { name: 'Add provider' }).click();
    const form = dialog.locator('.provider-form');
    await form.getByLabel('Preset').selectOption('custom');
    await form.getByLabel('Name').fill('local');
    await form.getByLabel('Base URL').fill(session.stack.fake.url);
    await form.getByLabel('API key').fill('test-key');
    await form.getByLabel('Models (comma separated; empty: ask the provider)').fill('fake-model');
    await form.getByRole('button', { name: 'Test connection' }).click();
    await form.getByText(/^Connected \(\d+ ms\)/).waitFor({ timeout: STEP_TIMEOUT });
    await form.getByRole('button', { name: 'Save' }).click();
    await dialog.locator('.provider-card', { hasText: 'local' }).waitFor({ timeout: STEP_TIMEOUT });
    const defaultModel = dialog.getByLabel('Default model');
    const options = await defaultModel.locator('option').allTextContents();
    expect(options).toContain('fake-model · local');
    const localValue = await defaultModel
      .locator('option', { hasText: 'fake-model · local' })
      .getAttribute('value');
    await defaultModel.selectOption(localValue ?? '');
    await expect.poll(async () => (await session.stack.client.listModels()).default_model).toBe(localValue);
    // Presets fill in what they know.
    await dialog.getByRole('button', { name: 'Add provider' }).click();
    const preset = dialog.locator('.provider-form');
    await preset.getByLabel('Preset').selectOption('deepseek');
    expect(await preset.getByLabel('Base URL').inputValue()).toBe('https://api.deepseek.com/v1');
    await session.page.screenshot({ path: join(SCREENSHOTS, 'settings-models.png') });
    await preset.getByRole('button', { name: 'Cancel' }).click();
  }, 60_000);

  it('manages components across layers: project over global, diagnostics, plugin toggles, edit and delete', async () => {
    const { stack, page } = session;
    const workspace = join(stack.root, 'workspace');
    await mkdir(workspace, { recursive: true });
    // A folder that cannot load, for the diagnostics.
    await mkdir(join(stack.root, 'home', 'skills', 'broken'), { recursive: true });
    await writeFile(
      join(stack.root, 'home', 'skills', 'broken', 'index.md'),
      '---\nversion: 2\nname: broken\n---\nNo.\n',
    );
    await stack.client.createComponent({
      kind: 'skill',
      name: 'greet',
      layer: 'global',
      frontMatter: { description: 'Greets (global).' },
      body: 'Say hello.',
    });
    // A project with a directory: its layer is where project components go.
    await page.getByRole('button', { name: 'New project' }).click();
    await page.getByLabel('Project name').fill('Garden');
    await page.getByLabel('Workspace directory (optional)').fill(workspace);
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('region', { name: 'Garden' }).waitFor({ timeout: STEP_TIMEOUT });

    const dialog = await openSettings('Components');
    await dialog.getByRole('button', { name: 'New skill' }).click();
    await dialog.locator('input[name="component-name"]').fill('greet');
    await dialog.getByLabel('Layer').selectOption('project');
    await dialog.locator('input[name="component-description"]').fill('Greets (project).');
    await dialog.locator('textarea[name="component-body"]').fill('Say hello, project style.');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const rows = dialog.getByTestId('component-skill-greet');
    await expect.poll(() => rows.count(), { timeout: STEP_TIMEOUT }).toBe(2);
    const texts = await rows.allTextContents();
    expect(texts.some((text) => text.includes('Project') && text.includes('Greets (project).'))).toBe(true);
    expect(texts.some((text) => text.includes('Global') && text.includes('Overridden by Project'))).toBe(
      true,
    );

    const diagnostics = dialog.locator('.diagnostic');
    await expect.poll(() => diagnostics.count(), { timeout: STEP_TIMEOUT }).toBeGreaterThan(0);
    expect(await diagnostics.first().textContent()).toContain('broken');

    // A plugin: created from the form, then switched off and on.
    await dialog.getByRole('button', { name: 'New plugin' }).click();
    await dialog.locator('input[name="component-name"]').fill('audit');
    await dialog.locator('textarea[name="component-body"]').fill('Keeps an audit log.');
    // Spec §1.3: a plugin runs commands as the user; saving needs the warning confirmed.
    await dialog.getByRole('button', { name: 'Save' }).click();
    expect(await dialog.getByTestId('trust-warning').textContent()).toContain('Confirm the warning to save.');
    await dialog.locator('input[name="component-acknowledged"]').check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    const plugin = dialog.getByTestId('component-plugin-audit');
    await plugin.waitFor({ timeout: STEP_TIMEOUT });
    const toggle = plugin.getByRole('checkbox', { name: 'Enabled' });
    expect(await toggle.isChecked()).toBe(true);
    await toggle.click();
    await expect.poll(() => toggle.isChecked(), { timeout: STEP_TIMEOUT }).toBe(false);
    await toggle.click();
    await expect.poll(() => toggle.isChecked(), { timeout: STEP_TIMEOUT }).toBe(true);

    // Edit the project skill, then delete it: the global one is in effect again.
    await dialog
      .locator('.component-row', { hasText: 'Greets (project).' })
      .getByRole('button', { name: 'Edit greet' })
      .click();
    await dialog.locator('textarea[name="component-body"]').fill('Say hello, edited.');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => {
        const document = await stack.client.readComponent('skill', 'greet', 'project', await projectId());
        return document.body;
      })
      .toBe('Say hello, edited.');
    await page.screenshot({ path: join(SCREENSHOTS, 'settings-components.png') });
    await dialog
      .locator('.component-row', { hasText: 'Greets (project).' })
      .getByRole('button', { name: 'Delete greet' })
      .click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete' });
    expect(await confirm.textContent()).toContain('Delete the skill “greet” from the Project layer?');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => rows.count(), { timeout: STEP_TIMEOUT }).toBe(1);
    expect(await rows.first().textContent()).not.toContain('Overridden');
    await dialog.getByRole('button', { name: 'Close settings' }).click();
  }, 60_000);

  it('creates a skill in the components manager and invokes it with / in a new conversation', async () => {
    await session.page.getByRole('button', { name: 'Settings' }).last().click();
    const dialog = session.page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('button', { name: 'Components' }).click();
    await dialog.getByRole('button', { name: 'New skill' }).click();
    await dialog.locator('input[name="component-name"]').fill('haiku');
    await dialog.locator('input[name="component-description"]').fill('Answer in a haiku.');
    await dialog.locator('textarea[name="component-body"]').fill('Answer with one haiku. HAIKU-SKILL');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByTestId('component-skill-haiku').waitFor({ timeout: STEP_TIMEOUT });
    expect(await dialog.getByTestId('component-skill-haiku').textContent()).toContain('Global');
    await dialog.getByRole('button', { name: 'Close settings' }).click();

    await session.page.getByRole('button', { name: 'New conversation', exact: true }).click();
    const input = session.page.getByTestId('composer-input');
    await input.fill('/hai');
    const option = session.page.getByRole('option', { name: /\/haiku/ });
    await option.waitFor({ timeout: STEP_TIMEOUT });
    expect(await option.textContent()).toContain('Answer in a haiku.');
    await input.press('Enter');
    expect(await input.inputValue()).toBe('/haiku ');
    await input.pressSequentially('about autumn');
    await input.press('Enter');
    const answer = lastAnswer();
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: STEP_TIMEOUT }).toBe('complete');
    expect(await answer.textContent()).toContain('Autumn moonlight');
    expect(await session.page.locator('[data-role="user"] .skill-chip').last().textContent()).toContain(
      '/haiku',
    );
    const lastRequest = session.stack.fake.chatRequests.at(-1);
    expect(JSON.stringify(lastRequest?.body)).toContain('HAIKU-SKILL');
  }, 60_000);

  it('deletes a project with its conversations after confirming', async () => {
    const { page, stack } = session;
    const garden = page.getByRole('region', { name: 'Garden' });
    await garden.waitFor({ timeout: STEP_TIMEOUT });
    // The skill test talked in this project: it has a conversation.
    expect(await garden.locator('.conversation-item').count()).toBeGreaterThan(0);
    await garden.getByRole('button', { name: 'Delete project · Garden' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete project' });
    expect(await confirm.textContent()).toContain('Its conversations are deleted too.');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await garden.waitFor({ state: 'detached', timeout: STEP_TIMEOUT });
    const projects = await stack.client.listProjects();
    expect(projects.map((project) => project.name)).not.toContain('Garden');
  }, 60_000);

  it("speaks the browser's language by default", async () => {
    const chinese = await openBrowser({ locale: 'zh-CN' });
    try {
      await chinese.page.goto(session.stack.server.loginUrl);
      await chinese.page
        .getByRole('button', { name: '新建会话', exact: true })
        .waitFor({ timeout: STEP_TIMEOUT });
      expect(await chinese.page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
      expect(await chinese.page.getByTestId('composer-input').getAttribute('placeholder')).toContain(
        '给 YouYou 发消息',
      );
    } finally {
      await chinese.close();
    }
  }, 60_000);

  it('switches theme and language', async () => {
    await session.page.getByRole('button', { name: 'Settings' }).last().click();
    const dialog = session.page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('button', { name: 'Appearance' }).click();
    const background = () => session.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await background();
    await dialog.getByText('Dark', { exact: true }).click();
    expect(await session.page.evaluate(() => document.documentElement.dataset['theme'])).toBe('dark');
    expect(await background()).not.toBe(light);
    await session.page.screenshot({ path: join(SCREENSHOTS, 'settings-dark.png') });
    // A custom accent is data over the tokens: every accent shade follows it.
    await dialog.getByLabel('Accent colour').fill('#0f766e');
    expect(
      await session.page.evaluate(() =>
        getComputedStyle(document.documentElement).getPropertyValue('--color-accent').trim(),
      ),
    ).toBe('#0f766e');
    await dialog.getByRole('button', { name: 'Use the theme’s' }).click();
    expect(
      await session.page.evaluate(() => document.documentElement.style.getPropertyValue('--color-accent')),
    ).toBe('');
    await dialog.getByRole('button', { name: 'Language' }).click();
    await dialog.getByText('简体中文', { exact: true }).click();
    expect(await session.page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    const chinese = session.page.getByRole('dialog', { name: '设置' });
    await chinese.getByRole('button', { name: '外观' }).waitFor();
    await chinese.getByRole('button', { name: '模型' }).click();
    await session.page.screenshot({ path: join(SCREENSHOTS, 'settings-zh.png') });
    // Both stay after a reload (localStorage now, the server's preferences too).
    await session.page.reload();
    await session.page
      .getByRole('button', { name: '新建会话', exact: true })
      .waitFor({ timeout: STEP_TIMEOUT });
    expect(await session.page.evaluate(() => document.documentElement.dataset['theme'])).toBe('dark');
    await expect.poll(async () => (await session.stack.client.getPreferences())['theme']).toBe('dark');
    // Back to English and light for anything after.
    await session.page.evaluate(() => localStorage.clear());
  }, 60_000);
});

async function projectId(): Promise<string> {
  const projects = await session.stack.client.listProjects();
  const garden = projects.find((project) => project.name === 'Garden');
  if (garden === undefined) throw new Error('no project Garden');
  return garden.id;
}
