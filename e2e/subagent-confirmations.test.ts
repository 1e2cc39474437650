// Browser test of sub-agents' confirmation cards (issue 26): two sub-agents ask at once for the
// same mutating tool; each card names the sub-agent that asks (its profile and task), and "Allow
// for this conversation" on one answers its twin too, both cards updating without a reload.
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fakeTextReply, fakeToolCallReply, type FakeReply } from '@youyou/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS, STEP_TIMEOUT, useWorkbenchSession } from './support/workbench-session.ts';

const session = useWorkbenchSession();

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
let researcherId = '';

/** One model response that calls spawn_agent once per task, all at once. */
function spawnAll(...tasks: Record<string, unknown>[]): FakeReply {
  return {
    type: 'stream',
    steps: tasks.map((task) => ({ type: 'tool_call' as const, name: 'spawn_agent', arguments: task })),
  };
}

beforeAll(async () => {
  const folder = join(session.stack.root, 'home', 'tools', 'write_note');
  notes = join(folder, 'notes.txt');
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'index.md'), WRITE_NOTE);
  await writeFile(notes, '');
  await writeFile(join(folder, 'run.sh'), `#!/bin/sh\ncat >> '${notes}'\necho >> '${notes}'\necho "saved"\n`);
  await chmod(join(folder, 'run.sh'), 0o755);
  const { server } = session.stack;
  const response = await fetch(`${server.url}/api/profiles`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Researcher',
      systemPrompt: '',
      model: { router: 'chat' },
      parameters: {},
      tools: { allow: ['*'], deny: [], confirm: [] },
      context: { policy: 'default' },
      hitl: { askOnAmbiguity: true, timeoutSec: null },
      budget: {},
    }),
  });
  researcherId = ((await response.json()) as { id: string }).id;
});

describe('sub-agents’ confirmation cards in a browser', () => {
  it('each card names the sub-agent that asks; "Allow for this conversation" on one answers its twin', async () => {
    const { page } = session;
    session.stack.fake.push(
      spawnAll(
        { task: 'Note the venue', tools: ['write_note'], profile_id: researcherId },
        { task: 'Note the caterer', tools: ['write_note'] },
      ),
      fakeToolCallReply('write_note', { text: 'from a sub-agent' }),
      fakeToolCallReply('write_note', { text: 'from a sub-agent' }),
      fakeTextReply('noted'),
      fakeTextReply('noted'),
      fakeTextReply('Both sub-agents noted their part.'),
    );
    await session.send('Plan the launch with two helpers');
    const pending = page.locator('[data-testid="hitl-card"][data-card-status="pending"]');
    await expect.poll(() => pending.count(), { timeout: STEP_TIMEOUT }).toBe(2);
    const requesters = (await pending.getByTestId('hitl-requester').allTextContents()).sort();
    expect(requesters).toEqual([
      'Sub-agent Researcher asks Task: Note the venue',
      'Sub-agent asks Task: Note the caterer',
    ]);
    await pending.first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, 'subagent-confirm-cards.png') });

    await pending.first().getByTestId('hitl-allow-conversation').click();
    // Both cards leave "pending" from the one answer: the twin without a click of its own.
    await expect.poll(() => pending.count(), { timeout: STEP_TIMEOUT }).toBe(0);
    await session.answerEnds();
    expect(await session.lastAnswer().textContent()).toContain('Both sub-agents noted their part.');
    const answer = session.lastAnswer();
    const summary = answer.getByTestId('process-summary');
    if ((await summary.count()) > 0 && (await summary.getAttribute('aria-expanded')) === 'false')
      await summary.click();
    const outcomes = (await answer.getByTestId('hitl-outcome').allTextContents()).sort();
    expect(outcomes).toEqual([
      'Allowed for this conversation',
      'Allowed for this conversation (answered on the other card for this tool)',
    ]);
    await answer.getByTestId('hitl-outcome').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, 'subagent-confirm-twin-answered.png') });
    expect((await readFile(notes, 'utf8')).match(/from a sub-agent/g)).toHaveLength(2);
  }, 90_000);
});
