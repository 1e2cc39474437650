// Browser tests of HITL cards, tool confirmation and the planboard (issue 10): the real agent loop
// against a scripted fake model, the real server, Chromium. Every card is answered through the UI.
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  fakeAskUserReply,
  fakeReplyAfterToolResult,
  fakeTextReply,
  fakeToolCallReply,
  fakeUpdatePlanReply,
  fakeUpdateTodosReply,
} from '@youyou/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS, STEP_TIMEOUT, useWorkbenchSession } from './support/workbench-session.ts';

const session = useWorkbenchSession();

/**
 * The §4.5 example card, as the model sends it with ask_user (in English: the Debian Chromium here
 * has no CJK font, and the screenshot should be legible; the free input below is Chinese).
 */
const FORMAT_CARD = {
  question: 'Which output format?',
  kind: 'choice',
  choices: [
    {
      id: 'md',
      label: 'Markdown document',
      description: 'A light document you can keep under version control',
      impact: 'Written to the artifacts and shown in the right column; revisions are diffs',
      recommended: true,
    },
    {
      id: 'docx',
      label: 'Word document',
      description: 'Easy to hand out offline',
      impact: 'Creates a .docx file; every revision regenerates it',
    },
  ],
  allowFreeInput: true,
  freeInputHint: 'Or type a question, or another format',
} as const;

/** A mutating file tool: under the default policy every call asks on a confirm card. */
const WRITE_NOTE = `---
version: 1
name: write_note
mutating: true
parameters:
  - name: text
    type: string
    required: true
execution:
  command: ./run.sh
---
Appends a note to notes.txt.
`;

let notes = '';

beforeAll(async () => {
  const folder = join(session.stack.root, 'home', 'tools', 'write_note');
  notes = join(folder, 'notes.txt');
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'index.md'), WRITE_NOTE);
  await writeFile(notes, '');
  await writeFile(
    join(folder, 'run.sh'),
    `#!/bin/sh\ncat >> '${notes}'\necho >> '${notes}'\necho "note saved"\n`,
  );
  await chmod(join(folder, 'run.sh'), 0o755);
});

/** The card the model answered with ask_user replies with what it was told. */
function askThenEcho(card: object = FORMAT_CARD) {
  session.stack.fake.push(
    fakeAskUserReply({ ...card }),
    fakeReplyAfterToolResult((result) => fakeTextReply(`Told: ${result}`)),
  );
}

function pendingCard(page: Page = session.page) {
  return page.locator('[data-testid="hitl-card"][data-card-status="pending"]').last();
}

/**
 * What became of the card in an answer, once the answer has ended with `status`: a finished run is
 * folded into its summary line, so the summary is opened first.
 */
async function cardOutcome(
  options: { page?: Page; status?: string; message?: 'first' | 'last' } = {},
): Promise<string> {
  const page = options.page ?? session.page;
  const answers = page.locator('[data-role="assistant"]');
  const answer = options.message === 'first' ? answers.first() : answers.last();
  await expect
    .poll(() => answer.getAttribute('data-status'), { timeout: STEP_TIMEOUT })
    .toBe(options.status ?? 'complete');
  const summary = answer.getByTestId('process-summary');
  if ((await summary.count()) > 0 && (await summary.getAttribute('aria-expanded')) === 'false')
    await summary.click();
  const outcome = answer.getByTestId('hitl-outcome').last();
  await outcome.waitFor({ timeout: STEP_TIMEOUT });
  return (await outcome.textContent()) ?? '';
}

/** The newest chat request the fake model received, as text. */
function lastModelRequest(): string {
  return JSON.stringify(session.stack.fake.chatRequests.at(-1)?.body);
}

describe('HITL cards in a browser', () => {
  it('shows a choice card with impact and the recommended badge; "第二个" typed in it is taken as option 2', async () => {
    const { page } = session;
    askThenEcho();
    await session.send('Write the quarterly report');
    const card = pendingCard();
    await card.waitFor({ timeout: STEP_TIMEOUT });
    expect(await card.getByRole('radio').count()).toBe(2);
    expect(await card.getByTestId('hitl-choice-md').textContent()).toContain('Recommended');
    expect(await card.getByTestId('hitl-choice-docx').textContent()).toContain('Creates a .docx file');
    // The composer says that what is typed goes to the card.
    await page.getByText('Your message answers the question above').waitFor({ timeout: STEP_TIMEOUT });
    await page.screenshot({ path: join(SCREENSHOTS, 'hitl-choice-card.png') });
    await card.getByTestId('hitl-free-input').fill('第二个');
    await card.getByTestId('hitl-free-input').press('Enter');
    expect(await cardOutcome()).toContain('Taken as option 2 (2. Word document) from “第二个”');
    await session.answerEnds();
    expect(await session.lastAnswer().textContent()).toContain('Told: The user chose "docx"');
  }, 60_000);

  it('free text that picks no option, typed in the composer, goes to the model as the answer', async () => {
    const { page } = session;
    askThenEcho();
    await session.send('Write the report');
    await pendingCard().waitFor({ timeout: STEP_TIMEOUT });
    await page.getByTestId('composer-input').fill('What is the difference between them?');
    await page.getByTestId('composer-input').press('Enter');
    expect(await cardOutcome()).toContain('Sent as an answer: “What is the difference between them?”');
    await session.answerEnds();
    expect(await session.lastAnswer().textContent()).toContain('What is the difference between them?');
  }, 60_000);

  it('a /command typed on the card supersedes the waiting run and starts a new turn', async () => {
    const { page } = session;
    // The run that asks is superseded before it continues; the new turn runs the command itself.
    session.stack.fake.push(fakeAskUserReply({ ...FORMAT_CARD }));
    await session.send('Write another report');
    const card = pendingCard();
    await card.waitFor({ timeout: STEP_TIMEOUT });
    await card.getByTestId('hitl-free-input').fill('/new-topic tell me a joke');
    await card.getByTestId('hitl-free-input').press('Enter');
    // The old answer ends cancelled (superseded); the new turn's user message is on the page.
    expect(await cardOutcome({ message: 'first', status: 'cancelled' })).toContain(
      'Sent as a new request: “/new-topic tell me a joke”',
    );
    await page
      .locator('[data-role="user"]', { hasText: '/new-topic tell me a joke' })
      .waitFor({ timeout: STEP_TIMEOUT });
    expect(await page.locator('[data-role="assistant"]').count()).toBe(2);
    expect(session.stack.fake.remaining).toBe(0);
  }, 60_000);

  it('a card still waits after a reload and is answered with the keyboard', async () => {
    const { page } = session;
    askThenEcho();
    await session.send('Pick a format, then I reload');
    await pendingCard().waitFor({ timeout: STEP_TIMEOUT });
    await page.reload();
    const card = pendingCard();
    await card.waitFor({ timeout: STEP_TIMEOUT });
    // Number keys pick: 1 is Markdown.
    await card.getByRole('radio').first().focus();
    await page.keyboard.press('1');
    expect(await cardOutcome()).toContain('You chose 1. Markdown document');
    await session.answerEnds();
    expect(await session.lastAnswer().textContent()).toContain('Told: The user chose "md"');
  }, 60_000);

  it('two tabs show the same card; answering in one resolves it in the other', async () => {
    const { page } = session;
    askThenEcho();
    await session.send('Two tabs, one answer');
    await pendingCard().waitFor({ timeout: STEP_TIMEOUT });
    const other = await page.context().newPage();
    try {
      await other.goto(page.url());
      const otherCard = pendingCard(other);
      await otherCard.waitFor({ timeout: STEP_TIMEOUT });
      await otherCard.getByTestId('hitl-choice-docx').click();
      expect(await cardOutcome({ page: other })).toContain('You chose 2. Word document');
      // The first tab was not touched: its card resolves from the hitl.resolved event.
      expect(await cardOutcome({ page })).toContain('You chose 2. Word document');
      expect(await page.locator('[data-testid="hitl-card"][data-card-status="pending"]').count()).toBe(0);
    } finally {
      await other.close();
    }
  }, 60_000);
});

describe('tool confirmation in a browser', () => {
  function noteCall(text: string) {
    session.stack.fake.push(
      fakeToolCallReply('write_note', { text }),
      fakeReplyAfterToolResult((result) => fakeTextReply(`Tool said: ${result}`)),
    );
  }

  it('a confirm card shows the tool, its description and readable arguments; "Allow once" runs it', async () => {
    const { page } = session;
    noteCall('allowed once');
    await session.send('Note it down');
    const card = pendingCard();
    await card.waitFor({ timeout: STEP_TIMEOUT });
    expect(await card.getAttribute('data-card-kind')).toBe('confirm');
    expect(await card.locator('.hitl-tool-name').textContent()).toContain('write_note');
    expect(await card.locator('.hitl-tool-name').textContent()).toContain('Makes changes');
    expect(await card.locator('.hitl-tool-description').textContent()).toBe('Appends a note to notes.txt.');
    expect(await card.locator('.hitl-arguments').textContent()).toContain('allowed once');
    await page.screenshot({ path: join(SCREENSHOTS, 'hitl-confirm-card.png') });
    await card.getByTestId('hitl-allow-once').click();
    expect(await cardOutcome()).toContain('Allowed once');
    await session.answerEnds();
    expect(await session.lastAnswer().textContent()).toContain('Tool said: note saved');
    expect(await readFile(notes, 'utf8')).toContain('allowed once');
  }, 60_000);

  it('"Deny" with a reason does not run the tool and the model is told why', async () => {
    noteCall('never written');
    await session.send('Note this too');
    const card = pendingCard();
    await card.waitFor({ timeout: STEP_TIMEOUT });
    await card.getByLabel('Why not? (optional, the agent is told)').fill('not today');
    await card.getByTestId('hitl-deny').click();
    expect(await cardOutcome()).toContain('Denied: not today');
    await session.answerEnds();
    expect(await session.lastAnswer().textContent()).toContain('The user denied this call: not today');
    expect(await readFile(notes, 'utf8')).not.toContain('never written');
  }, 60_000);

  it('"Allow for this conversation" runs the next call without a card', async () => {
    const { page } = session;
    session.stack.fake.push(
      fakeToolCallReply('write_note', { text: 'granted one' }),
      fakeToolCallReply('write_note', { text: 'granted two' }),
      fakeTextReply('Both noted.'),
    );
    await session.send('Note two things');
    const card = pendingCard();
    await card.waitFor({ timeout: STEP_TIMEOUT });
    await card.getByTestId('hitl-allow-conversation').click();
    expect(await cardOutcome()).toContain('Allowed for this conversation');
    await session.answerEnds();
    expect(await session.lastAnswer().textContent()).toContain('Both noted.');
    expect(await page.getByTestId('hitl-card').count()).toBe(1);
    const written = await readFile(notes, 'utf8');
    expect(written).toContain('granted one');
    expect(written).toContain('granted two');
  }, 60_000);
});

describe('plan and todos in a browser', () => {
  it('the Plan and Todos tabs update live, and a todo ticked by the user reaches the model', async () => {
    const { page } = session;
    session.stack.fake.push(
      // The model takes a moment to plan, as a real one does: the plan arrives over the live
      // stream. (A plan stored before the new conversation's first fetch reaches the page only in
      // that fetch, which opens no tab: a known gap, see the closing note of 2026-12-04.)
      {
        ...fakeUpdatePlanReply(
          [
            { id: 'read', title: 'Read the code', status: 'in_progress' },
            { id: 'fix', title: 'Write the fix', status: 'pending' },
            { id: 'ship', title: 'Ship it', status: 'pending' },
          ],
          'Small and safe steps.',
        ),
        stepDelayMs: 1_500,
      },
      fakeUpdateTodosReply([
        { id: 't1', text: 'Write tests' },
        { id: 't2', text: 'Update the docs' },
      ]),
      fakeAskUserReply({ question: 'Go on with the fix?', kind: 'confirm' }),
      fakeUpdatePlanReply([
        { id: 'read', title: 'Read the code', status: 'done' },
        { id: 'fix', title: 'Write the fix', status: 'in_progress' },
        { id: 'ship', title: 'Ship it', status: 'pending' },
      ]),
      fakeTextReply('On it.'),
    );
    await session.send('Plan the fix');
    await pendingCard().waitFor({ timeout: STEP_TIMEOUT });
    const show = page.getByRole('button', { name: 'Show the workbench' });
    const workbench = page.getByTestId('right-column');
    // The Plan tab opened itself with the first plan. The right column may still be hidden (its
    // toggle can render after the card, on a busy machine): open it whenever the toggle shows.
    const plan = workbench.getByTestId('plan-tab');
    const deadline = Date.now() + STEP_TIMEOUT;
    while (!(await plan.isVisible())) {
      if (Date.now() > deadline) throw new Error('the Plan tab did not show');
      if (await show.isVisible()) await show.click();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await workbench.getByRole('tab', { name: 'Plan' }).getAttribute('aria-selected')).toBe('true');
    expect(await plan.textContent()).toContain('0 of 3 steps done');
    expect(await plan.textContent()).toContain('Now: Read the code');
    await page.screenshot({ path: join(SCREENSHOTS, 'plan-tab.png') });

    await workbench.getByRole('tab', { name: 'Todos' }).click();
    const todos = workbench.getByTestId('todos-tab');
    await todos.getByTestId('todo-item').nth(1).waitFor({ timeout: STEP_TIMEOUT });
    // The box is controlled: it shows ticked once the server has the change.
    const tick = todos.getByRole('checkbox', { name: 'Write tests' });
    await tick.click();
    await expect.poll(() => tick.isChecked(), { timeout: STEP_TIMEOUT }).toBe(true);
    await expect.poll(() => todos.textContent(), { timeout: STEP_TIMEOUT }).toContain('1 open of 2');

    await pendingCard().getByRole('button', { name: 'Yes' }).click();
    await session.answerEnds();
    // The model's step after the answer was told of the tick.
    expect(lastModelRequest()).toContain('ticked (marked done) \\"Write tests\\"');
    await workbench.getByRole('tab', { name: 'Plan' }).click();
    await expect.poll(() => plan.textContent(), { timeout: STEP_TIMEOUT }).toContain('1 of 3 steps done');
    expect(await plan.textContent()).toContain('Now: Write the fix');
    expect(await plan.locator('.plan-step').first().getAttribute('data-status')).toBe('done');
  }, 60_000);
});
