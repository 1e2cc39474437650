// Browser test of an answer's replay (spec §4.17, issue 27): any answer of an ordinary
// conversation opens from its actions as a timeline of its recorded events; stepping back shows
// the answer as it stood then, and each model call shows its assembly report beside it.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { fakeTextReply, fakeToolCallReply, sessionScripts } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser } from './support/browser.ts';
import { fakeModelReply } from './support/fake-model.ts';
import { startStack, type Stack } from './support/stack.ts';
import { SCREENSHOTS, STEP_TIMEOUT } from './support/workbench-session.ts';

const scripts = sessionScripts(
  [
    {
      match: 'What time is it',
      replies: [fakeToolCallReply('current_time', {}), fakeTextReply('It is time for the replay.')],
    },
  ],
  fakeModelReply,
);

let stack: Stack;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;

beforeAll(async () => {
  stack = await startStack({ reply: scripts.reply });
  browser = await openBrowser();
  page = browser.page;
  await page.goto(stack.server.loginUrl);
  await page.goto(`${stack.server.url}/#/`);
  await page.getByTestId('composer-input').waitFor({ timeout: STEP_TIMEOUT });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('replay of an answer in the browser', () => {
  it("an ordinary conversation's answer replays as a timeline with the assembly report beside each model call", async () => {
    await page.getByTestId('composer-input').fill('What time is it?');
    await page.getByTestId('composer-input').press('Enter');
    const answer = page.locator('[data-role="assistant"]').last();
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: STEP_TIMEOUT }).toBe('complete');
    await answer.getByRole('button', { name: 'Replay' }).click();
    const dialog = page.getByRole('dialog', { name: 'Replay of this answer' });
    const timeline = dialog.getByTestId('replay-timeline');
    await timeline.waitFor({ timeout: STEP_TIMEOUT });

    // Two model calls (the one asking for the tool, the one answering), the tool call between.
    const calls = timeline.locator('[data-type="model.call"]');
    expect(await calls.count()).toBe(2);
    expect(await calls.first().textContent()).toContain('Model call 1');
    expect(await timeline.locator('[data-type="tool.call"]').textContent()).toContain('current_time');
    // It opens on the finished answer.
    expect(await dialog.getByTestId('replay-answer').textContent()).toContain('It is time for the replay.');

    // Back at the first model call: nothing written yet, and its report beside it.
    await calls.first().click();
    expect(await dialog.getByTestId('replay-answer').textContent()).not.toContain('It is time');
    const report = dialog.getByTestId('replay-report');
    expect(await report.textContent()).toContain('What the model saw in call 1');
    expect(await report.getByTestId('context-report').textContent()).toContain(
      'This message and its attachments',
    );

    // At the second call the tool has answered; its report is the one beside it.
    await calls.nth(1).click();
    expect(await report.textContent()).toContain('What the model saw in call 2');
    expect(await dialog.getByTestId('replay-answer').textContent()).toContain('current_time');
    await page.screenshot({ path: join(SCREENSHOTS, 'replay-timeline.png') });

    // Playing runs to the end of the timeline.
    await dialog.getByTestId('replay-play').click();
    await expect
      .poll(() => dialog.getByTestId('replay-answer').textContent(), { timeout: STEP_TIMEOUT })
      .toContain('It is time for the replay.');
    await dialog.getByRole('button', { name: 'Close the replay' }).click();
  }, 60_000);
});
