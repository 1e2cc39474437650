// Browser tests of a new user's first run (the README's steps, literally), the responsive columns
// at three window widths, and moving a conversation between projects.
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
  // No provider: the person starts from nothing, as after `npm start`.
  stack = await startStack({ provider: false });
  browser = await openBrowser();
  page = browser.page;
  await page.goto(stack.server.loginUrl);
  await page.getByTestId('composer-input').waitFor({ timeout: STEP_TIMEOUT });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

async function addCustomProvider(name: string, baseUrl: string) {
  await page.getByRole('button', { name: 'Settings' }).last().click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByRole('button', { name: 'Models' }).click();
  await dialog.getByRole('button', { name: 'Add provider' }).click();
  const form = dialog.locator('.provider-form');
  await form.getByLabel('Preset').selectOption('custom');
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Base URL').fill(baseUrl);
  await form.getByLabel('API key').fill('test-key');
  // Models left empty: "ask the provider".
  await form.getByLabel('Models (comma separated; empty: ask the provider)').fill('');
  await form.getByRole('button', { name: 'Test connection' }).click();
  return { dialog, form };
}

describe('the first run, as the README tells it', () => {
  it('a message sent before any provider keeps its text, leaves no conversation behind and says what to do', async () => {
    const input = page.getByTestId('composer-input');
    await input.fill('Hello before a provider');
    await input.press('Enter');
    const error = page.locator('.composer-error');
    await error.waitFor({ timeout: STEP_TIMEOUT });
    expect(await error.textContent()).not.toMatch(/\/api\/|POST /);
    // The text comes back when the send's promise settles, a moment after the error shows.
    await expect.poll(() => input.inputValue(), { timeout: STEP_TIMEOUT }).toBe('Hello before a provider');
    expect((await stack.client.listConversations()).conversations).toEqual([]);
  }, 60_000);

  it('a base URL without /v1 gets a hint that names the fix', async () => {
    const withoutVersion = stack.fake.url.replace(/\/v1$/, '');
    const { dialog, form } = await addCustomProvider('typo', withoutVersion);
    await form.getByText(/Could not connect: .*try .*\/v1/).waitFor({ timeout: STEP_TIMEOUT });
    await form.getByRole('button', { name: 'Cancel' }).click();
    await dialog.getByRole('button', { name: 'Close settings' }).click();
  }, 60_000);

  it('a provider saved with its models left empty lists the discovered models, and a message gets an answer', async () => {
    const { dialog, form } = await addCustomProvider('local', stack.fake.url);
    await form.getByText(/^Connected \(\d+ ms\)/).waitFor({ timeout: STEP_TIMEOUT });
    await form.getByRole('button', { name: 'Save' }).click();
    const card = dialog.locator('.provider-card', { hasText: 'local' });
    await card.getByText('fake-model').waitFor({ timeout: STEP_TIMEOUT });
    const defaultModel = dialog.getByLabel('Default model');
    expect(await defaultModel.locator('option').allTextContents()).toContain('fake-model · local');
    await dialog.getByRole('button', { name: 'Close settings' }).click();
    // The failed send's error no longer applies once there is a provider: it is gone.
    await page.locator('.composer-error').waitFor({ state: 'detached', timeout: STEP_TIMEOUT });

    await page.getByTestId('composer-input').fill('Hello after the first run');
    await page.getByTestId('composer-input').press('Enter');
    const answer = page.locator('[data-role="assistant"]').last();
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: STEP_TIMEOUT }).toBe('complete');
    const models = await stack.client.listModels();
    expect(models.models.map((model) => model.id)).toEqual(['local/fake-model']);
  }, 60_000);
});

/** A screenshot once the columns' width transition has ended (it moves for 160 ms). */
async function layoutScreenshot(name: string): Promise<void> {
  await page.getByTestId('app-shell').evaluate(async (shell) => {
    await Promise.all(shell.getAnimations({ subtree: true }).map((animation) => animation.finished));
  });
  await page.screenshot({ path: join(SCREENSHOTS, name) });
}

async function middleWidth(): Promise<number> {
  return page.locator('main.middle-column').evaluate((element) => element.getBoundingClientRect().width);
}

describe('the columns at three window widths', () => {
  it('1440 px: three columns side by side', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByRole('button', { name: 'Show the workbench' }).click();
    await expect.poll(() => page.getByTestId('app-shell').getAttribute('data-viewport')).toBe('wide');
    await page.getByTestId('right-column').waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    await page.getByRole('tablist', { name: 'Workbench tabs' }).waitFor({ timeout: STEP_TIMEOUT });
    expect(await page.getByTestId('left-column').getAttribute('data-collapsed')).toBe('false');
    expect(await page.getByTestId('right-column').getAttribute('class')).not.toContain('floating');
    expect(await middleWidth()).toBeGreaterThan(600);
    await layoutScreenshot('layout-1440.png');
  }, 60_000);

  it('1024 px: the left column is its rail and the right one floats over the conversation', async () => {
    await page.setViewportSize({ width: 1024, height: 768 });
    await expect.poll(() => page.getByTestId('app-shell').getAttribute('data-viewport')).toBe('medium');
    expect(await page.getByTestId('left-column').getAttribute('data-collapsed')).toBe('true');
    // The rail names its items in tooltips.
    expect(await page.locator('.rail-item').first().getAttribute('title')).not.toBeNull();
    await page.getByRole('button', { name: 'Show the workbench' }).click();
    await expect.poll(() => page.getByTestId('right-column').getAttribute('class')).toContain('floating');
    // The conversation keeps its width under the floating column.
    expect(await middleWidth()).toBeGreaterThan(800);
    await layoutScreenshot('layout-1024.png');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('right-column').isHidden()).toBe(true);
  }, 60_000);

  it('760 px: both side columns float, the conversation stays readable', async () => {
    await page.setViewportSize({ width: 760, height: 900 });
    await expect.poll(() => page.getByTestId('app-shell').getAttribute('data-viewport')).toBe('narrow');
    expect(await middleWidth()).toBeGreaterThan(600);
    await page.getByRole('button', { name: 'Expand sidebar' }).click();
    await expect.poll(() => page.getByTestId('left-column').getAttribute('class')).toContain('floating');
    expect(await middleWidth()).toBeGreaterThan(600);
    await layoutScreenshot('layout-760.png');
    await page.locator('.column-scrim').click({ position: { x: 700, y: 400 } });
    await expect.poll(() => page.getByTestId('left-column').getAttribute('data-collapsed')).toBe('true');
    await page.setViewportSize({ width: 1440, height: 900 });
  }, 60_000);

  it('420 px: the floating workbench leaves the rail and its buttons reachable', async () => {
    await page.setViewportSize({ width: 420, height: 900 });
    await expect.poll(() => page.getByTestId('app-shell').getAttribute('data-viewport')).toBe('narrow');
    await page.getByRole('button', { name: 'Show the workbench' }).click();
    await expect.poll(() => page.getByTestId('right-column').getAttribute('class')).toContain('floating');
    const rail = await page.getByTestId('left-column').evaluate((element) => element.getBoundingClientRect());
    const workbench = await page
      .getByTestId('right-column')
      .evaluate((element) => element.getBoundingClientRect());
    expect(workbench.left).toBeGreaterThanOrEqual(rail.right - 1);
    // A rail button takes the click itself (no scrim over it).
    await page.locator('.rail-item').first().click({ timeout: STEP_TIMEOUT });
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1440, height: 900 });
  }, 60_000);
});

describe('one project tree', () => {
  it('a conversation moves between projects and back to "No project"', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await stack.client.createProject({ name: 'Garden' });
    await stack.client.createProject({ name: 'Kitchen' });
    await page.reload();
    await page.getByRole('region', { name: 'Kitchen' }).waitFor({ timeout: STEP_TIMEOUT });
    const ungrouped = page.getByRole('region', { name: 'No project' });
    const item = ungrouped.locator('.conversation-item').first();
    await item.waitFor({ timeout: STEP_TIMEOUT });
    const title = (await item.locator('.conversation-title').textContent()) ?? '';
    await item.getByRole('button', { name: `More actions for ${title}` }).click();
    await page.getByRole('menuitem', { name: 'Move to “Garden”' }).click();
    const garden = page.getByRole('region', { name: 'Garden' });
    await garden.getByText(title).waitFor({ timeout: STEP_TIMEOUT });
    const conversations = await stack.client.listConversations();
    const moved = conversations.conversations.find((conversation) => conversation.title === title);
    expect(moved?.project_id).not.toBeNull();

    await garden.getByRole('button', { name: `More actions for ${title}` }).click();
    await page.getByRole('menuitem', { name: 'Move to “No project”' }).click();
    await ungrouped.getByText(title).waitFor({ timeout: STEP_TIMEOUT });
  }, 60_000);
});

describe('providers done right', () => {
  it('a provider is edited: a model hidden leaves the picker, capabilities declared, and a refresh keeps the edits', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByRole('button', { name: 'Settings' }).last().click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('button', { name: 'Models' }).click();
    await dialog.getByRole('button', { name: 'Edit · local' }).click();
    const editor = dialog.getByRole('form', { name: 'Edit the provider “local”' });
    await editor.getByLabel('Images · fake-model').check();
    await editor.getByLabel('Add model').fill('extra-model');
    await editor.getByRole('button', { name: 'Add model' }).click();
    await editor.getByLabel('Offer extra-model in the model pickers').uncheck();
    await editor.getByRole('button', { name: 'Refresh models' }).click();
    await editor.getByLabel('Offer extra-model in the model pickers').waitFor({ timeout: STEP_TIMEOUT });
    await page.screenshot({ path: join(SCREENSHOTS, 'settings-provider-editor.png') });
    await editor.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('button', { name: 'Edit · local' }).waitFor({ timeout: STEP_TIMEOUT });
    const providers = await stack.client.listProviders();
    const local = providers.find((provider) => provider.name === 'local');
    expect(local?.models.find((model) => model.id === 'extra-model')?.hidden).toBe(true);
    expect(local?.models.find((model) => model.id === 'fake-model')?.capabilities?.vision).toBe(true);
    const models = await stack.client.listModels();
    expect(models.models.map((model) => model.id)).toEqual(['local/fake-model']);
    await dialog.getByRole('button', { name: 'Close settings' }).click();
  }, 60_000);
});

describe('usage', () => {
  it('the usage page charts tokens by day and by model, with a table', async () => {
    await page.getByRole('button', { name: 'Settings' }).last().click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('button', { name: 'Usage' }).click();
    await dialog.getByTestId('usage-chart').waitFor({ timeout: STEP_TIMEOUT });
    expect(await dialog.locator('.usage-bar.usage-input').count()).toBeGreaterThan(0);
    await dialog.getByLabel('Group by').selectOption('model');
    await dialog.getByRole('rowheader', { name: 'local/fake-model' }).waitFor({ timeout: STEP_TIMEOUT });
    await page.screenshot({ path: join(SCREENSHOTS, 'settings-usage.png') });
    await dialog.getByRole('button', { name: 'Close settings' }).click();
  }, 60_000);
});
