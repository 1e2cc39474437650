// Browser test of a project's knowledge page (spec §4.12 "在项目页与设置中心可见", issue 12): a
// document uploaded into a project's conversation shows in the project's knowledge page, opened
// from the project in the left column, as indexed; the page's search finds it, with its citation.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser } from './support/browser.ts';
import { startStack, type Stack } from './support/stack.ts';
import { SCREENSHOTS, STEP_TIMEOUT } from './support/workbench-session.ts';

const NOTES = [
  '# Warehouse notes',
  '',
  '## Returns',
  '',
  'Returned parcels go to dock seven, where the night shift checks them against the manifest.',
  '',
].join('\n');

let stack: Stack;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;
let projectId: string;

beforeAll(async () => {
  stack = await startStack();
  const project = await stack.client.createProject({ name: 'Warehouse' });
  projectId = project.id;
  const conversation = await stack.client.createConversation({ projectId });
  browser = await openBrowser();
  page = browser.page;
  await page.goto(stack.server.loginUrl);
  await page.goto(`${stack.server.url}/#/c/${conversation.id}`);
  await page.getByTestId('composer-input').waitFor({ timeout: STEP_TIMEOUT });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe("a project's knowledge page in the browser", () => {
  it('a document uploaded into a project conversation is listed indexed on the project page, and its search finds it with a citation', async () => {
    await page
      .getByTestId('file-input')
      .setInputFiles([{ name: 'warehouse-notes.md', mimeType: 'text/markdown', buffer: Buffer.from(NOTES) }]);
    const tray = page.locator('.attachment-tray');
    await tray
      .locator('.document-status[data-status="parsed"], .document-status[data-status="indexed"]')
      .waitFor({ timeout: STEP_TIMEOUT });
    await expect
      .poll(() => page.getByTestId('send-button').isEnabled(), { timeout: STEP_TIMEOUT })
      .toBe(true);
    await page.getByTestId('composer-input').fill('keep these notes');
    await page.getByTestId('composer-input').press('Enter');
    const answer = page.locator('[data-role="assistant"]').last();
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: STEP_TIMEOUT }).toBe('complete');

    await page.getByRole('button', { name: 'Project knowledge · Warehouse' }).click();
    const dialog = page.getByRole('dialog', { name: 'Knowledge of Warehouse' });
    await dialog.waitFor({ timeout: STEP_TIMEOUT });
    const row = dialog.getByTestId('knowledge-items').locator('tr', { hasText: 'warehouse-notes.md' });
    await expect.poll(() => row.textContent(), { timeout: STEP_TIMEOUT }).toContain('Indexed');
    expect((await stack.client.listKnowledge(projectId)).counts.indexed).toBeGreaterThanOrEqual(1);

    await dialog.getByTestId('knowledge-search-input').fill('dock seven');
    await dialog.getByRole('button', { name: 'Search', exact: true }).click();
    const hit = dialog.getByTestId('knowledge-hits').locator('li').first();
    await hit.waitFor({ timeout: STEP_TIMEOUT });
    expect(await hit.textContent()).toContain('warehouse-notes.md');
    expect(await hit.locator('.knowledge-hit-place').textContent()).toContain('Returns');
    expect((await hit.locator('mark').allTextContents()).join(' ').toLowerCase()).toContain('dock');
    expect(await hit.getByRole('button', { name: 'warehouse-notes.md' }).getAttribute('title')).toMatch(
      /^youyou-doc:/,
    );
    await page.screenshot({ path: join(SCREENSHOTS, 'project-knowledge.png') });

    // The citation opens the document in the viewer, at the cited passage.
    await hit.getByRole('button', { name: 'warehouse-notes.md' }).click();
    const viewer = page.getByTestId('document-viewer');
    await viewer.waitFor({ timeout: STEP_TIMEOUT });
    await expect.poll(() => viewer.textContent(), { timeout: STEP_TIMEOUT }).toContain('dock seven');
  }, 90_000);
});
