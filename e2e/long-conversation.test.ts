// A long conversation opens at its end (issue 26, decision 0042): 200 messages, the newest one in
// view and the list scrolled to the bottom on the first frame it shows, not 850 px above.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openBrowser } from './support/browser.ts';
import { startStack, type Stack } from './support/stack.ts';
import { SCREENSHOTS, STEP_TIMEOUT } from './support/workbench-session.ts';

const TURNS = 100;
let stack: Stack;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;
let conversationId: string;

async function settled(runId: string): Promise<void> {
  const deadline = Date.now() + STEP_TIMEOUT;
  while (['pending', 'running'].includes((await stack.client.getRun(runId)).status)) {
    if (Date.now() > deadline) throw new Error(`run ${runId} did not end`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  stack = await startStack();
  const conversation = await stack.client.createConversation({ title: 'Two hundred messages' });
  conversationId = conversation.id;
  for (let turn = 1; turn <= TURNS; turn += 1) {
    const { run } = await stack.client.sendMessage(conversationId, {
      text: `Turn ${String(turn)}: tell me more`,
    });
    await settled(run.id);
  }
  browser = await openBrowser();
  page = browser.page;
  await page.goto(stack.server.loginUrl);
  await page.getByTestId('composer-input').waitFor({ timeout: STEP_TIMEOUT });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

it('opens a 200-message conversation scrolled to the bottom with the newest message in view', async () => {
  await page.goto('about:blank');
  await page.goto(`${stack.server.url}/#/c/${conversationId}`);
  const newest = page.locator('[data-role="user"]', { hasText: `Turn ${String(TURNS)}:` });
  await newest.waitFor({ timeout: STEP_TIMEOUT });
  // Where the list stands the first time the newest message is there, before anything settles.
  const opened = await page.evaluate(() => {
    const scroller = document.querySelector('[data-testid="message-scroller"]');
    if (scroller === null) throw new Error('no message list');
    return scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight;
  });
  expect(opened).toBeLessThan(2);
  const answer = page.locator('[data-role="assistant"]').last();
  await answer.waitFor({ timeout: STEP_TIMEOUT });
  await expect.poll(() => isInView(page, '[data-role="assistant"]')).toBe(true);
  expect(await isInView(page, '[data-role="user"]')).toBe(true);
  await page.screenshot({ path: join(SCREENSHOTS, 'long-conversation-opens-at-bottom.png') });
});

/** Whether the last element matching `selector` overlaps the message list's visible area. */
async function isInView(target: Page, selector: string): Promise<boolean> {
  return target.evaluate((rowSelector) => {
    const scroller = document.querySelector('[data-testid="message-scroller"]');
    const rows = document.querySelectorAll(rowSelector);
    const row = rows[rows.length - 1];
    if (scroller === null || row === undefined) return false;
    const view = scroller.getBoundingClientRect();
    const box = row.getBoundingClientRect();
    return box.bottom > view.top && box.top < view.bottom;
  }, selector);
}
