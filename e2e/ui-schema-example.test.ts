// Browser test of the example extension's UI (extensions/example): installed through the API, its
// weather panel is a right-column tab drawn by the UI-schema renderer, and the panel's form calls
// the extension's declarative HTTP tool against a local weather service through the server; the
// pressed button is in Settings → Tools → audit.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { fakeTextReply } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, openWorkbenchTab } from './support/browser.ts';
import { startStack, type Stack } from './support/stack.ts';
import { SCREENSHOTS, STEP_TIMEOUT } from './support/workbench-session.ts';

const EXAMPLE = fileURLToPath(new URL('../extensions/example', import.meta.url));

let stack: Stack;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;
let weather: Server;
const asked: string[] = [];

beforeAll(async () => {
  weather = createServer((request, response) => {
    asked.push(request.url ?? '');
    const city = decodeURIComponent((request.url ?? '').split('/')[2]?.split('?')[0] ?? '');
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ current: { city, temperature: 4, conditions: 'snow', wind_kmh: 20 } }));
  });
  await new Promise<void>((resolve) => weather.listen(0, '127.0.0.1', resolve));
  stack = await startStack();
  const preview = await stack.client.previewExtension(EXAMPLE);
  if (preview.permissions === null) throw new Error('the example extension did not check out');
  await stack.client.installExtension({
    staging_id: preview.staging_id,
    accepted_permissions: preview.permissions,
  });
  await stack.client.writeSettings({
    layer: 'user',
    values: {
      'example.endpoint': `http://127.0.0.1:${String((weather.address() as AddressInfo).port)}`,
      'example.api_key': 'key-for-the-local-weather-service',
    },
  });
  browser = await openBrowser();
  page = browser.page;
  await page.goto(stack.server.loginUrl);
  await page.getByTestId('composer-input').waitFor({ timeout: STEP_TIMEOUT });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await new Promise((resolve) => weather?.close(resolve));
});

describe("the example extension's panel", () => {
  it('is a right-column tab whose form runs the extension’s HTTP tool and shows its answer', async () => {
    await openWorkbenchTab(page, 'Weather');
    const panel = page.getByTestId('ui-panel');
    await panel.getByRole('heading', { name: 'City weather' }).waitFor({ timeout: STEP_TIMEOUT });
    const city = panel.getByLabel('City');
    expect(await city.inputValue()).toBe('Paris');
    await city.fill('Oslo');
    await panel.getByRole('button', { name: 'Look up' }).click();
    await expect
      .poll(() => panel.getByTestId('ui-action-output').textContent(), { timeout: STEP_TIMEOUT })
      .toContain('snow');
    expect(asked).toEqual(['/weather/Oslo?units=metric']);
    await page.screenshot({ path: join(SCREENSHOTS, 'example-panel.png') });
  });

  it('the button pressed outside any conversation is in the tool audit with the extension, the user and the outcome', async () => {
    await page.getByRole('button', { name: 'Settings' }).last().click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('button', { name: 'Tools', exact: true }).click();
    const audit = dialog.getByTestId('audit-row').first();
    await audit.waitFor({ timeout: STEP_TIMEOUT });
    const row = (await audit.textContent()) ?? '';
    expect(row).toContain('city_weather');
    expect(row).toContain('a button of extension:example');
    expect(row).toContain('Succeeded');
    expect(row).toContain('outside a conversation');
    expect(await audit.getByTestId('audit-actor').textContent()).toBe('a button of extension:example');
    await dialog.getByRole('button', { name: 'Close settings' }).click();
  });
});

describe("the example extension's workflow command", () => {
  it('/city-report with its form starts the workflow directly: its card, its steps on the Plan tab, its result as the answer', async () => {
    const before = stack.fake.chatRequests.length;
    // The workflow's prompt step is the only model call.
    stack.fake.push(fakeTextReply('Oslo: snow, 4 °C.'));
    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    const input = page.getByTestId('composer-input');
    await input.fill('/city-report');
    await input.press('Enter');
    const form = page.getByRole('form', { name: /city-report/ });
    await form.getByLabel('City').fill('Oslo');
    await form.getByRole('button', { name: 'Run' }).click();
    await expect.poll(() => input.inputValue(), { timeout: STEP_TIMEOUT }).toBe('/city-report city=Oslo');
    await input.press('Enter');
    const card = page.locator('[data-testid="hitl-card"][data-card-status="pending"]').last();
    await card.waitFor({ timeout: STEP_TIMEOUT });
    expect(await card.textContent()).toContain('How long should the report on Oslo be?');
    await card.getByTestId('hitl-choice-short').click();
    const answer = page.locator('[data-role="assistant"]').last();
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: STEP_TIMEOUT }).toBe('complete');
    await expect
      .poll(() => answer.textContent(), { timeout: STEP_TIMEOUT })
      .toContain("The workflow 'City weather report' finished.");
    expect(stack.fake.chatRequests.length - before).toBe(1);
    await openWorkbenchTab(page, 'Plan');
    const plan = page.getByTestId('plan-tab');
    await expect
      .poll(() => plan.textContent(), { timeout: STEP_TIMEOUT })
      .toContain('City weather report: finished');
    expect(await plan.locator('.plan-step').first().getAttribute('data-status')).toBe('done');
    await page.screenshot({ path: join(SCREENSHOTS, 'example-workflow-command.png') });
  }, 60_000);
});
