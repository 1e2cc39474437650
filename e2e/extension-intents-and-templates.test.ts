// Browser test of the example extension's intent on an ordinary message (its missing slot asked on
// a form card), its prompt applied from `/` in the composer, and a profile made from its profile
// template in Settings → Profiles.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { fakeTextReply, lastUserText } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser } from './support/browser.ts';
import { startStack, type Stack } from './support/stack.ts';
import { SCREENSHOTS, STEP_TIMEOUT } from './support/workbench-session.ts';

const EXAMPLE = fileURLToPath(new URL('../extensions/example', import.meta.url));

let stack: Stack;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;

beforeAll(async () => {
  stack = await startStack();
  const preview = await stack.client.previewExtension(EXAMPLE);
  if (preview.permissions === null) throw new Error('the example extension did not check out');
  await stack.client.installExtension({
    staging_id: preview.staging_id,
    accepted_permissions: preview.permissions,
  });
  browser = await openBrowser();
  page = browser.page;
  await page.goto(stack.server.loginUrl);
  await page.getByTestId('composer-input').waitFor({ timeout: STEP_TIMEOUT });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe("the example extension's intent, prompt and profile template in a browser", () => {
  it('an ordinary message the weather intent recognises asks for the missing city on a form card, then the model gets the request with it', async () => {
    stack.fake.push(fakeTextReply('I will report on Oslo.'));
    const input = page.getByTestId('composer-input');
    await input.fill('I would like a weather report please');
    await input.press('Enter');
    const card = page.locator('[data-testid="hitl-card"][data-card-status="pending"]').last();
    await card.waitFor({ timeout: STEP_TIMEOUT });
    expect(await card.textContent()).toContain('Weather report for a city: a few details first.');
    await card.getByLabel('Which city? / 哪个城市？').fill('Oslo');
    await page.screenshot({ path: join(SCREENSHOTS, 'intent-slot-form.png') });
    await card.getByRole('button', { name: 'Submit' }).click();
    const answer = page.locator('[data-role="assistant"]').last();
    await expect
      .poll(() => answer.textContent(), { timeout: STEP_TIMEOUT })
      .toContain('I will report on Oslo.');
    expect(lastUserText(stack.fake.chatRequests.at(-1)?.body)).toContain(
      'call workflow_city_report) with city = Oslo.',
    );
    // The conversation shows what was typed, not the request the model got.
    expect(await page.locator('[data-role="user"]').last().textContent()).toContain(
      'I would like a weather report please',
    );
  }, 60_000);

  it("the extension's prompt, picked from / in the composer, fills the composer with its text", async () => {
    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    const input = page.getByTestId('composer-input');
    await input.fill('/weather-rep');
    await page.getByRole('option', { name: /weather-reporter/ }).waitFor({ timeout: STEP_TIMEOUT });
    await page.screenshot({ path: join(SCREENSHOTS, 'extension-prompt-menu.png') });
    await input.press('Enter');
    await expect
      .poll(() => input.inputValue(), { timeout: STEP_TIMEOUT })
      .toContain('You are a weather reporter. Report the current conditions first');
  }, 60_000);

  it('Settings → Profiles makes a profile from the profile template and opens it for fine-tuning', async () => {
    await page.getByRole('button', { name: 'Settings' }).last().click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('button', { name: 'Profiles', exact: true }).click();
    const template = dialog.getByLabel('Profile template');
    await template.waitFor({ timeout: STEP_TIMEOUT });
    expect(await template.locator('option').allTextContents()).toEqual([
      'Weather reporter · extension:example',
    ]);
    await dialog.getByRole('button', { name: 'New from template' }).click();
    const name = dialog.getByLabel('Name', { exact: true });
    await expect.poll(() => name.inputValue(), { timeout: STEP_TIMEOUT }).toBe('Weather reporter');
    await page.screenshot({ path: join(SCREENSHOTS, 'profile-from-template.png') });
    const profiles = await stack.server.services.profiles.list();
    expect(profiles.map((profile) => profile.name)).toContain('Weather reporter');
  }, 60_000);
});
