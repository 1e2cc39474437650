/**
 * Web UI benchmark (issue 6): the app shell's initial JavaScript (gzip; budget 250 KB), and a
 * 2,000-message conversation in Debian Chromium — time to first render, and frame times while
 * scrolling through all of it. Run by `npm run bench` (EXTRA_BENCHMARKS) or alone:
 *   node --import tsx bench/web/web-ui.ts [--turns 1000]
 */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { lastUserText, type FakeReply, type RecordedRequest } from '@youyou/testing';
import { webAppDirectory } from '@youyou/web';
import {
  answerOf,
  firstRenders,
  loadEveryPage,
  openSignedIn,
  percentile,
  scrollFrames,
  startBenchStack,
  writeConversation,
} from './bench-support.ts';
import { measureShellSize } from './shell-size.ts';

const SHELL_BUDGET_BYTES = 250 * 1024;
const { values } = parseArgs({
  options: { turns: { type: 'string', default: '1000' }, loads: { type: 'string', default: '5' } },
});
const turns = Number(values.turns);
const loads = Number(values.loads);

function benchReply(request: RecordedRequest): FakeReply {
  return { type: 'stream', steps: [{ type: 'text', text: answerOf(lastUserText(request.body)) }] };
}

async function main(): Promise<void> {
  const stack = await startBenchStack({ reply: benchReply });
  const shell = await measureShellSize(webAppDirectory);
  const browser = await openSignedIn(stack);
  try {
    const seedStarted = performance.now();
    const conversation = writeConversation(stack.databaseFile, 'Long conversation', turns);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const { page } = browser;
    const url = `${stack.server.url}/#/c/${conversation.id}`;
    const firstRender = await firstRenders(page, url, loads, `Turn ${String(turns)}:`);
    const loadAllSeconds = await loadEveryPage(page);
    const times = await scrollFrames(page, '[data-testid="message-scroller"]');
    const frames = {
      times,
      ...((await page.evaluate(`({
        height: document.querySelector('[data-testid="message-scroller"]').scrollHeight,
        rows: document.querySelectorAll('[data-run-id]').length,
      })`)) as { height: number; rows: number }),
    };
    const median = percentile(firstRender, 0.5);
    const slow = frames.times.filter((time) => time > 1000 / 60 + 1).length;
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
    const lines = [
      `App shell initial JS: ${kb(shell.jsBytes)} raw, ${kb(shell.jsGzip)} gzip (budget ${kb(SHELL_BUDGET_BYTES)}: ${shell.jsGzip <= SHELL_BUDGET_BYTES ? 'within' : 'OVER'}); CSS ${kb(shell.cssGzip)} gzip`,
      ...shell.files.map((file) => `  ${file.path}: ${kb(file.bytes)} raw, ${kb(file.gzip)} gzip`),
      `Conversation: ${String(turns * 2)} messages (${String(turns)} turns), written into the database in ${seedSeconds.toFixed(1)} s`,
      `Time to first render (navigation start → newest turns painted), ${String(loads)} loads: median ${median.toFixed(0)} ms, min ${Math.min(...firstRender).toFixed(0)} ms, max ${Math.max(...firstRender).toFixed(0)} ms`,
      `Loading every earlier page by scrolling up: ${loadAllSeconds.toFixed(1)} s`,
      `Scrolling the whole conversation (${String(frames.height)} px, 240 px per frame, ${String(frames.times.length)} frames, ${String(frames.rows)} rows in the DOM at the end): frame time p50 ${percentile(frames.times, 0.5).toFixed(1)} ms, p95 ${percentile(frames.times, 0.95).toFixed(1)} ms, p99 ${percentile(frames.times, 0.99).toFixed(1)} ms, max ${Math.max(0, ...frames.times).toFixed(1)} ms; ${((100 * slow) / Math.max(1, frames.times.length)).toFixed(1)}% of frames over 16.7 ms`,
      `(headless Debian Chromium, --disable-gpu, software rendering; ${String(availableParallelism())} cores)`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await browser.close();
    await stack.close();
  }
}

await main();
