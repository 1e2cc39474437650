// Browser test of a profile's context slots and a sub-agent's assembly report (spec §4.10, issue
// 12): the profile editor shows each slot's priority and share, warns when the shares pass 100 %
// and the server refuses them with CONTEXT_SHARES_INVALID, saves good ones; a sub-agent's card in
// the tracker opens "what the model saw" for the sub-agent's own model calls.
import { join } from 'node:path';
import type { AgentProfile } from '@youyou/contracts';
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
      match: 'Ask a helper',
      replies: [
        fakeToolCallReply('spawn_agent', { task: 'Count the crates' }),
        fakeTextReply('The helper counted 12 crates.'),
      ],
    },
    { match: 'Count the crates', replies: [fakeTextReply('There are 12 crates.')] },
  ],
  fakeModelReply,
);

let stack: Stack;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;

async function profiles(): Promise<AgentProfile[]> {
  const response = await fetch(`${stack.server.url}/api/profiles`, {
    headers: { authorization: `Bearer ${stack.server.token}` },
  });
  return ((await response.json()) as { profiles: AgentProfile[] }).profiles;
}

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

describe('context slots and sub-agent assembly in the browser', () => {
  it("the profile editor sets the slots' priorities and shares; shares over 100 % are refused", async () => {
    await page.getByRole('button', { name: 'Settings' }).last().click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('button', { name: 'Profiles', exact: true }).click();
    await dialog.getByRole('button', { name: 'New profile' }).click();
    const editor = dialog.getByRole('form', { name: 'Profile editor' });
    await editor.getByLabel('Name', { exact: true }).fill('Short on knowledge');
    const slots = editor.getByTestId('context-slots');
    // The defaults show: memory 5 %, knowledge 20 %, the rest share what is left.
    expect(await slots.getByLabel('Share of Knowledge (%)').inputValue()).toBe('20');
    expect(await slots.getByLabel('Share of History (%)').inputValue()).toBe('');
    expect(await slots.getByTestId('context-slots-sum').textContent()).toContain('25 %');

    await slots.getByLabel('Share of Knowledge (%)').fill('99');
    await expect
      .poll(() => slots.getByRole('alert').textContent(), { timeout: STEP_TIMEOUT })
      .toContain('add up to 1.04');
    await editor.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => editor.locator('.profile-error').textContent(), { timeout: STEP_TIMEOUT })
      .toContain('The request is not valid: the shares add up to 1.04');
    expect((await profiles()).map((profile) => profile.name)).not.toContain('Short on knowledge');

    await slots.getByLabel('Share of Knowledge (%)').fill('2');
    // The refusal was about the shares as they were saved: edited, it no longer shows.
    await expect.poll(() => editor.locator('.profile-error').count(), { timeout: STEP_TIMEOUT }).toBe(0);
    await slots.getByLabel('Priority of History').fill('6');
    expect(await slots.getByTestId('context-slots-sum').textContent()).toContain('7 %');
    await page.screenshot({ path: join(SCREENSHOTS, 'profile-context-slots.png') });
    await editor.getByRole('button', { name: 'Save' }).click();
    await dialog.locator('[data-profile="Short on knowledge"]').waitFor({ timeout: STEP_TIMEOUT });
    const saved = (await profiles()).find((profile) => profile.name === 'Short on knowledge');
    expect(saved?.context.assembly?.slots.knowledge).toEqual({ priority: 4, share: 0.02 });
    expect(saved?.context.assembly?.slots.history).toEqual({ priority: 6, share: null });
    await page.getByRole('button', { name: 'Close settings' }).click();
  }, 60_000);

  it("a sub-agent's card in the tracker shows what its model saw", async () => {
    await page.getByTestId('composer-input').fill('Ask a helper to count');
    await page.getByTestId('composer-input').press('Enter');
    const answer = page.locator('[data-role="assistant"]').last();
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: STEP_TIMEOUT }).toBe('complete');
    // The ended turn folds its tool calls: the Agents tab of the right column lists the sub-agent.
    const show = page.getByRole('button', { name: 'Show the workbench' });
    if (await show.isVisible()) await show.click();
    await page.getByRole('tab', { name: 'Agents' }).click();
    await page
      .getByTestId('right-column')
      .locator('.agent-summary', { hasText: 'Count the crates' })
      .click({ timeout: STEP_TIMEOUT });
    const detail = page.locator('.tracker-dialog').getByTestId('agent-detail');
    await detail.waitFor({ timeout: STEP_TIMEOUT });
    await detail.getByTestId('agent-what-the-model-saw').click();
    const report = page.getByRole('dialog', { name: 'What the model saw' }).getByTestId('context-report');
    await report.waitFor({ timeout: STEP_TIMEOUT });
    expect(await report.textContent()).toContain('This message and its attachments');
    await page.screenshot({ path: join(SCREENSHOTS, 'subagent-context-report.png') });
  }, 60_000);
});
