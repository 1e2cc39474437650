// Browser test of prices per model and per-conversation usage (spec §4.17): prices typed into the
// provider editor give each run a cost, shown in the conversation's menu and on the usage page.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser } from './support/browser.ts';
import { startStack, type Stack } from './support/stack.ts';
import { SCREENSHOTS, STEP_TIMEOUT } from './support/workbench-session.ts';

let stack: Stack;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;

beforeAll(async () => {
  stack = await startStack();
  browser = await openBrowser();
  page = browser.page;
  await page.goto(stack.server.loginUrl);
  await page.getByTestId('composer-input').waitFor({ timeout: STEP_TIMEOUT });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('prices and usage in the browser', () => {
  it('prices set in the provider editor give the conversation a cost, shown in its menu and on the usage page', async () => {
    await page.getByRole('button', { name: 'Settings' }).last().click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('button', { name: 'Models' }).click();
    await dialog.getByRole('button', { name: 'Edit · fake' }).click();
    await dialog.getByLabel('Input · fake-model').fill('3');
    await dialog.getByLabel('Output · fake-model').fill('15');
    await dialog.getByLabel('Cache read · fake-model').fill('0.3');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => (await stack.client.listProviders())[0]?.models[0]?.pricing, {
        timeout: STEP_TIMEOUT,
      })
      .toEqual({ input: 3, output: 15, cache_read: 0.3 });
    await dialog.getByRole('button', { name: 'Close settings' }).click();

    await page.getByTestId('composer-input').fill('How much is this answer?');
    await page.getByTestId('composer-input').press('Enter');
    const answer = page.locator('[data-role="assistant"]').last();
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: STEP_TIMEOUT }).toBe('complete');

    const { conversations } = await stack.client.listConversations();
    const conversation = conversations[0];
    const usage = await stack.client.conversationUsage(conversation?.id ?? '');
    const total = usage.totals[0];
    expect(total?.cost).toBeGreaterThan(0);
    const expected = ((total?.input_tokens ?? 0) * 3 + (total?.output_tokens ?? 0) * 15) / 1e6;
    expect(total?.cost).toBeCloseTo(expected, 10);

    const title =
      conversation?.title === '' || conversation?.title === undefined ? 'Untitled' : conversation.title;
    await page
      .getByRole('button', { name: new RegExp(`^More.*${title.slice(0, 10)}`) })
      .first()
      .click();
    await page.getByRole('menuitem', { name: 'Usage' }).click();
    const summary = page.getByTestId('conversation-usage-summary');
    await summary.waitFor({ timeout: STEP_TIMEOUT });
    expect(await summary.textContent()).toMatch(/1 runs · .* input tokens .* output tokens · \$0\.\d+/);
    await page.screenshot({ path: join(SCREENSHOTS, 'conversation-usage.png') });
    await page.getByRole('button', { name: 'Close usage' }).click();

    await page.getByRole('button', { name: 'Settings' }).last().click();
    await dialog.getByRole('button', { name: 'Usage' }).click();
    await dialog.getByTestId('usage-chart').waitFor({ timeout: STEP_TIMEOUT });
    const table = dialog.locator('.usage-table');
    expect(await table.locator('thead th').allTextContents()).toEqual(
      expect.arrayContaining(['Cache read', 'Cache write', 'Cost']),
    );
    expect(await table.locator('tbody tr').first().locator('td').last().textContent()).toMatch(/^\$0\.\d+$/);
    await page.screenshot({ path: join(SCREENSHOTS, 'usage-with-cost.png') });
  }, 90_000);
});
