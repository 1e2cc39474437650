// Browser test of the project's Documents tab (issue 25): in a project conversation one file joins
// the project's knowledge and one is kept to the conversation from its attachment chip; the right
// column's Documents tab lists both — indexed, and "only in its conversation" — with the toggle,
// and flipping the toggle puts the kept one into the project's knowledge. The document viewer
// moves a Word file (made by `docx`) between the conversation and the project's knowledge, and the
// Documents tab and the `@` picker follow.
import { join } from 'node:path';
import { documentFixtures } from '@youyou/testing/documents';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser } from './support/browser.ts';
import { startStack, type Stack } from './support/stack.ts';
import { SCREENSHOTS, STEP_TIMEOUT } from './support/workbench-session.ts';

let stack: Stack;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;
let projectId: string;

beforeAll(async () => {
  stack = await startStack();
  const project = await stack.client.createProject({ name: 'Harbour' });
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

describe("the project's Documents tab in the browser", () => {
  it('a file kept to its conversation from the chip is listed as such, and the toggle puts it in the project knowledge', async () => {
    await page.getByTestId('file-input').setInputFiles([
      {
        name: 'tides.md',
        mimeType: 'text/markdown',
        buffer: Buffer.from('# Tides\n\nHigh water at dawn.\n'),
      },
      {
        name: 'private.md',
        mimeType: 'text/markdown',
        buffer: Buffer.from('# Private\n\nOnly for this chat.\n'),
      },
    ]);
    const chip = page.locator('.pending-attachment', { hasText: 'private.md' });
    await chip.getByTestId('attachment-scope').check();
    await expect
      .poll(() => page.getByTestId('send-button').isEnabled(), { timeout: STEP_TIMEOUT })
      .toBe(true);
    await page.getByTestId('composer-input').fill('file these');
    await page.getByTestId('composer-input').press('Enter');
    const answer = page.locator('[data-role="assistant"]').last();
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: STEP_TIMEOUT }).toBe('complete');

    await page.getByRole('button', { name: 'Show the workbench' }).click();
    await page.getByRole('tab', { name: 'Documents' }).click();
    const list = page.getByTestId('project-documents');
    await list.waitFor({ timeout: STEP_TIMEOUT });
    const tides = list.locator('li', { hasText: 'tides.md' });
    const kept = list.locator('li', { hasText: 'private.md' });
    await expect.poll(() => tides.getAttribute('data-status'), { timeout: STEP_TIMEOUT }).toBe('indexed');
    await expect.poll(() => kept.getAttribute('data-status'), { timeout: STEP_TIMEOUT }).toBe('conversation');
    expect(await kept.getByRole('button', { name: 'Open its conversation' }).isVisible()).toBe(true);
    await page.screenshot({ path: join(SCREENSHOTS, 'project-documents.png') });

    // The box follows the server: it changes once the PATCH is answered and the list is read again.
    await kept.getByRole('checkbox').click();
    await expect.poll(() => kept.getAttribute('data-status'), { timeout: STEP_TIMEOUT }).toBe('indexed');
    const titles = (await stack.client.listKnowledge(projectId)).items.map((item) => item.title);
    expect(titles.sort()).toEqual(['private.md', 'tides.md']);
  }, 90_000);

  it('the viewer keeps a Word file to its conversation and puts it back; the Documents tab and @ follow', async () => {
    const docx = (await documentFixtures()).get('report-en.docx');
    if (docx === undefined) throw new Error('fixture missing');
    await page
      .getByTestId('file-input')
      .setInputFiles([{ name: docx.name, mimeType: docx.media_type, buffer: Buffer.from(docx.bytes) }]);
    await expect
      .poll(() => page.getByTestId('send-button').isEnabled(), { timeout: STEP_TIMEOUT })
      .toBe(true);
    const answers = page.locator('[data-role="assistant"]');
    const before = await answers.count();
    await page.getByTestId('composer-input').fill('file the report');
    await page.getByTestId('composer-input').press('Enter');
    await expect.poll(() => answers.count(), { timeout: STEP_TIMEOUT }).toBe(before + 1);
    const answer = answers.last();
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: STEP_TIMEOUT }).toBe('complete');

    const list = page.getByTestId('project-documents');
    const row = list.locator('li', { hasText: 'report-en.docx' });
    await expect.poll(() => row.getAttribute('data-status'), { timeout: STEP_TIMEOUT }).toBe('indexed');
    const offered = async (): Promise<boolean> =>
      (await stack.client.listReferences({ projectId, query: 'report' })).some(
        (candidate) => candidate.kind === 'document' && candidate.label === 'report-en.docx',
      );
    expect(await offered()).toBe(true);

    await row.getByRole('button', { name: 'report-en.docx' }).click();
    const viewer = page.getByTestId('document-viewer');
    await expect
      .poll(() => viewer.textContent(), { timeout: STEP_TIMEOUT })
      .toContain('Revenue grew by twelve percent');
    const box = viewer.getByTestId('viewer-scope');
    expect(await box.isChecked()).toBe(false);
    await box.click();
    // Checked once the server has answered; the viewer still shows the document, now read by its id.
    await expect
      .poll(() => viewer.getByTestId('viewer-scope').isChecked(), { timeout: STEP_TIMEOUT })
      .toBe(true);
    await expect
      .poll(() => viewer.textContent(), { timeout: STEP_TIMEOUT })
      .toContain('Revenue grew by twelve percent');
    await page.screenshot({ path: join(SCREENSHOTS, 'document-viewer-scope.png') });
    expect(await offered()).toBe(false);

    // The composer's @ no longer offers it in the project.
    const input = page.getByTestId('composer-input');
    await input.click();
    await input.pressSequentially('@report-en');
    const picker = page.getByTestId('reference-picker');
    await picker.getByText('Nothing matches.').waitFor({ timeout: STEP_TIMEOUT });
    await input.fill('');

    await viewer.getByRole('button', { name: 'Back to documents' }).click();
    await expect.poll(() => row.getAttribute('data-status'), { timeout: STEP_TIMEOUT }).toBe('conversation');

    // Opened again it has no knowledge item, and the box puts it back in the project's knowledge.
    await row.getByRole('button', { name: 'report-en.docx' }).click();
    await expect
      .poll(() => viewer.getByTestId('viewer-scope').isChecked(), { timeout: STEP_TIMEOUT })
      .toBe(true);
    await viewer.getByTestId('viewer-scope').click();
    await expect
      .poll(() => viewer.getByTestId('viewer-scope').isChecked(), { timeout: STEP_TIMEOUT })
      .toBe(false);
    await input.click();
    await input.pressSequentially('@report-en');
    await picker
      .getByRole('option', { name: /report-en\.docx/ })
      .first()
      .waitFor({ timeout: STEP_TIMEOUT });
    await input.fill('');
    await viewer.getByRole('button', { name: 'Back to documents' }).click();
    await expect.poll(() => row.getAttribute('data-status'), { timeout: STEP_TIMEOUT }).toBe('indexed');
    expect(await offered()).toBe(true);
  }, 90_000);
});
