/**
 * A HITL card answered in the web UI → the reply's first token painted (issue 26), in Debian
 * Chromium through playwright-core against the real server and the fake model on loopback. Each
 * round sends a message (through the API, as another tab would), the model calls ask_user, the card
 * shows in the open conversation; then, inside the page, the clock starts at the click on the
 * card's option and stops at the first animation frame that shows the reply's text in the
 * conversation — the answer's POST, the card resolved and the run woken on the server, the next
 * model request, the first delta over SSE, the projection and React's commit all on the path.
 * Beside it, the in-page time of the answer's own HTTP round trip (resource timing).
 * bench/server/hitl-latency.ts measures the server's part alone (answer → the model's request).
 *   node --conditions=@youyou/source --import tsx bench/web/card-answer.ts [--rounds 30] [--web-root dir]
 */
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { fakeAskUserReply, fakeReplyAfterToolResult, fakeTextReply } from '@youyou/testing';
import { openSignedIn, percentile, startBenchStack, type BenchStack } from './bench-support.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '30' },
    'web-root': { type: 'string' },
  },
});
const ROUNDS = Number(values.rounds);

const CARD = {
  question: 'Which output format?',
  kind: 'choice',
  choices: [
    { id: 'md', label: 'Markdown', impact: 'Written to the artifacts', recommended: true },
    { id: 'docx', label: 'Word', impact: 'A .docx file' },
  ],
  allowFreeInput: true,
} as const;

/** Clicks the pending card's first option and waits for `marker` to be painted; both in-page times. */
const ANSWER_AND_WAIT = `async (marker) => {
  const choice = document.querySelector('[data-testid="hitl-card"][data-card-status="pending"] [data-testid="hitl-choice-md"]');
  if (choice === null) throw new Error('no pending card');
  performance.clearResourceTimings();
  const started = performance.now();
  choice.click();
  const painted = await new Promise((resolve, reject) => {
    const deadline = started + 20000;
    const frame = () => {
      const rows = document.querySelectorAll('[data-role="assistant"]');
      const last = rows[rows.length - 1];
      if (last !== undefined && last.textContent.includes(marker)) resolve(performance.now());
      else if (performance.now() > deadline) reject(new Error('the reply never showed'));
      else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  const answer = performance.getEntriesByType('resource').find((entry) => entry.name.includes('/answer'));
  return { toToken: painted - started, answerRoundTrip: answer === undefined ? null : answer.duration };
}`;

async function settle(stack: BenchStack, runId: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!['completed', 'failed', 'cancelled'].includes((await stack.client.getRun(runId)).status)) {
    if (Date.now() > deadline) throw new Error(`run ${runId} did not end`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function round(
  stack: BenchStack,
  page: Page,
  conversationId: string,
  index: number,
): Promise<{ toToken: number; answerRoundTrip: number | null }> {
  const marker = `Reply ${String(index)}: Markdown it is`;
  stack.fake.push(
    fakeAskUserReply({ ...CARD }),
    fakeReplyAfterToolResult(() => fakeTextReply(`${marker}.`)),
  );
  const { run } = await stack.client.sendMessage(conversationId, { text: `Write report ${String(index)}` });
  await page
    .locator('[data-testid="hitl-card"][data-card-status="pending"] [data-testid="hitl-choice-md"]')
    .waitFor({ timeout: 20_000 });
  const result = (await page.evaluate(`(${ANSWER_AND_WAIT})(${JSON.stringify(marker)})`)) as {
    toToken: number;
    answerRoundTrip: number | null;
  };
  await settle(stack, run.id);
  return result;
}

async function main(): Promise<void> {
  const stack = await startBenchStack({
    reply: () => fakeTextReply('ok'),
    ...(values['web-root'] === undefined ? {} : { webRoot: values['web-root'] }),
  });
  const browser = await openSignedIn(stack);
  try {
    const conversation = await stack.client.createConversation({ title: 'Cards' });
    await browser.page.goto(`${stack.server.url}/#/c/${conversation.id}`);
    await browser.page.getByTestId('composer-input').waitFor();
    // Warm-up: the first card loads the card's code and the first answer's paths.
    for (let index = 0; index < 3; index += 1) await round(stack, browser.page, conversation.id, -index - 1);
    const samples: { toToken: number; answerRoundTrip: number | null }[] = [];
    for (let index = 0; index < ROUNDS; index += 1) {
      samples.push(await round(stack, browser.page, conversation.id, index));
      console.error(
        `round ${String(index + 1)}/${String(ROUNDS)}: ${samples.at(-1)?.toToken.toFixed(0) ?? ''} ms`,
      );
    }
    const toToken = samples.map((sample) => sample.toToken);
    const trips = samples.flatMap((sample) =>
      sample.answerRoundTrip === null ? [] : [sample.answerRoundTrip],
    );
    const row = (name: string, times: number[]) =>
      `| ${name} | median ${percentile(times, 0.5).toFixed(0)} ms, p95 ${percentile(times, 0.95).toFixed(0)} ms (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)}) |`;
    console.log(
      [
        `| measure (${String(ROUNDS)} rounds, SQLite) | value |`,
        '|---|---|',
        row('card option clicked → the reply’s first token painted', toToken),
        row('of which the answer’s HTTP round trip (in-page resource timing)', trips),
      ].join('\n'),
    );
  } finally {
    await browser.close();
    await stack.close();
  }
}

await main();
