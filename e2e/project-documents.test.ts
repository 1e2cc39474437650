// Browser test of the project's Documents tab (issue 25): in a project conversation one file joins
// the project's knowledge and one is kept to the conversation from its attachment chip; the right
// column's Documents tab lists both — indexed, and "only in its conversation" — with the toggle,
// and flipping the toggle puts the kept one into the project's knowledge.
import { join } from 'node:path';
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
});
