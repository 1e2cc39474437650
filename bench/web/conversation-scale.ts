/**
 * Web UI at scale (issue 14), in Debian Chromium through playwright-core, side by side with a raw
 * baseline page (the same texts as plain text nodes in a blank document, no framework):
 * - a 10,000-message conversation: time to first render (navigation start → the newest turns
 *   painted; target < 500 ms), the long tasks of that load, and frame times scrolling through
 *   every loaded message;
 * - a reply streaming 200 Markdown deltas/s (paragraphs, lists, code blocks) for 60 s: the longest
 *   main-thread task (PerformanceObserver `longtask`; target: none over 50 ms) and dropped frames
 *   (animation frames over 1.5 × 16.7 ms).
 * The conversation is written straight into the server's database (bench-support.ts).
 * `--web-root <dir>` measures another build of the UI (e.g. a copy of apps/web/dist from before a change).
 *   node --conditions=@youyou/source --import tsx bench/web/conversation-scale.ts [--turns 5000] [--seconds 60] [--web-root dir]
 */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { lastUserText, type FakeReply, type RecordedRequest } from '@youyou/testing';
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

const { values } = parseArgs({
  options: {
    turns: { type: 'string', default: '5000' },
    seconds: { type: 'string', default: '60' },
    rate: { type: 'string', default: '200' },
    loads: { type: 'string', default: '5' },
    'web-root': { type: 'string' },
  },
});
const TURNS = Number(values.turns);
const SECONDS = Number(values.seconds);
const RATE = Number(values.rate);
const LOADS = Number(values.loads);
const STREAM_PROMPT = 'Stream a long answer';

/** The streamed reply's deltas: Markdown that keeps opening paragraphs, lists and code blocks. */
function streamDeltas(count: number): string[] {
  const blocks = [
    'A paragraph with **bold**, `code` and a [link](https://example.com) that goes on for a while. ',
    '\n\n- a list item\n- another with `inline`\n',
    '\n\n```ts\nconst value = compute(1, 2);\nconsole.log(value);\n```\n\n',
    '\n\n## A heading\n\n',
    '\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n',
  ];
  const text = blocks.join('');
  const deltas: string[] = [];
  for (let index = 0; deltas.length < count; index += 6)
    deltas.push(text.slice(index % text.length, (index % text.length) + 6) || ' ');
  return deltas;
}

function benchReply(request: RecordedRequest): FakeReply {
  const question = lastUserText(request.body);
  if (question === STREAM_PROMPT) {
    return {
      type: 'stream',
      steps: streamDeltas(RATE * SECONDS).map((text) => ({ type: 'text' as const, text })),
      stepDelayMs: 1000 / RATE,
    };
  }
  return { type: 'stream', steps: [{ type: 'text', text: answerOf(question) }] };
}

/** Long tasks and frames from navigation start, collected in the page. */
const PROBE = `(() => {
  if (window.__longTasks !== undefined) return;
  window.__longTasks = [];
  new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.__longTasks.push({ start: entry.startTime, duration: entry.duration }); })
    .observe({ type: 'longtask', buffered: true });
  window.__frames = [];
  let last = performance.now();
  const frame = (now) => { window.__frames.push({ at: now, gap: now - last }); last = now; requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
})()`;

interface Window {
  longTasks: { start: number; duration: number }[];
  frames: { at: number; gap: number }[];
}

async function collected(page: Page, from = 0): Promise<Window> {
  return (await page.evaluate(`({
    longTasks: window.__longTasks.filter((task) => task.start >= ${String(from)}),
    frames: window.__frames.filter((frame) => frame.at >= ${String(from)}),
  })`)) as Window;
}

function frameSummary(times: readonly number[]): string {
  const dropped = times.filter((time) => time > 1.5 * (1000 / 60)).length;
  return `frame p50 ${percentile(times, 0.5).toFixed(1)} ms · p95 ${percentile(times, 0.95).toFixed(1)} ms · max ${Math.max(0, ...times).toFixed(0)} ms; ${((100 * dropped) / Math.max(1, times.length)).toFixed(1)}% dropped (${String(times.length)} frames)`;
}

function taskSummary(tasks: Window['longTasks']): string {
  const longest = Math.max(0, ...tasks.map((task) => task.duration));
  return `${String(tasks.length)} long tasks, longest ${longest.toFixed(0)} ms, ${String(tasks.filter((task) => task.duration > 50).length)} over 50 ms`;
}

/** The raw baseline: the same texts as plain divs in a blank page, built at once. */
async function rawFirstRender(
  page: Page,
  texts: readonly string[],
): Promise<{ ms: number; frames: number[] }> {
  await page.goto('about:blank');
  await page.setContent(
    '<!doctype html><div id="list" style="height:100vh;overflow:auto;font:14px sans-serif"></div>',
  );
  const ms = (await page.evaluate(`(async (texts) => {
    const started = performance.now();
    const list = document.getElementById('list');
    for (const text of texts) { const row = document.createElement('div'); row.style.whiteSpace = 'pre-wrap'; row.style.padding = '8px'; row.textContent = text; list.append(row); }
    list.scrollTop = list.scrollHeight;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    return performance.now() - started;
  })(${JSON.stringify(texts)})`)) as number;
  const frames = await scrollFrames(page, '#list');
  return { ms, frames };
}

/** The raw baseline of streaming: the same deltas appended as text nodes at the same rate. */
async function rawStream(page: Page): Promise<Window> {
  await page.goto('about:blank');
  await page.setContent(
    '<!doctype html><div id="out" style="white-space:pre-wrap;font:14px sans-serif"></div>',
  );
  await page.evaluate(PROBE);
  const started = (await page.evaluate('performance.now()')) as number;
  await page.evaluate(`(async (deltas, interval) => {
    const out = document.getElementById('out');
    let index = 0;
    await new Promise((resolve) => {
      const timer = setInterval(() => {
        out.append(document.createTextNode(deltas[index] ?? ''));
        index += 1;
        if (index >= deltas.length) { clearInterval(timer); resolve(); }
      }, interval);
    });
  })(${JSON.stringify(streamDeltas(RATE * SECONDS))}, ${String(1000 / RATE)})`);
  return collected(page, started);
}

async function main(): Promise<void> {
  const stack = await startBenchStack({
    reply: benchReply,
    ...(values['web-root'] === undefined ? {} : { webRoot: values['web-root'] }),
  });
  const browser = await openSignedIn(stack, PROBE);
  try {
    const seedStarted = performance.now();
    const big = writeConversation(stack.databaseFile, 'Ten thousand messages', TURNS);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const { page } = browser;
    const url = `${stack.server.url}/#/c/${big.id}`;

    const loadTasks: Window['longTasks'] = [];
    const firstRender = await firstRenders(page, url, LOADS, `Turn ${String(TURNS)}:`, async () => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      loadTasks.push(...(await collected(page)).longTasks);
    });
    // Every earlier page loaded by scrolling up, then the whole conversation scrolled down.
    const loadAllSeconds = await loadEveryPage(page);
    const scrollStarted = (await page.evaluate('performance.now()')) as number;
    const frames = await scrollFrames(page, '[data-testid="message-scroller"]');
    const scrollTasks = (await collected(page, scrollStarted)).longTasks;
    const raw = await rawFirstRender(page, big.texts);

    // Streaming: a new conversation, one reply of RATE deltas/s for SECONDS.
    await page.goto(`${stack.server.url}/`);
    await page.getByTestId('composer-input').waitFor();
    await page.getByTestId('composer-input').fill(STREAM_PROMPT);
    const streamStarted = (await page.evaluate('performance.now()')) as number;
    await page.getByTestId('composer-input').press('Enter');
    await page.waitForFunction(
      `document.querySelector('[data-role="assistant"][data-status="complete"]') !== null`,
      undefined,
      {
        polling: 1000,
        timeout: (SECONDS + 120) * 1000,
      },
    );
    const streaming = await collected(page, streamStarted);
    const rawStreaming = await rawStream(page);

    const median = percentile(firstRender, 0.5);
    const longestStream = Math.max(0, ...streaming.longTasks.map((task) => task.duration));
    const rawLongest = Math.max(0, ...rawStreaming.longTasks.map((task) => task.duration));
    const lines = [
      `| measure | YouYou | raw baseline (plain text nodes) | ratio | target |`,
      `|---|---|---|---|---|`,
      `| first render, ${String(TURNS * 2)}-message conversation (navigation start → newest turns painted), ${String(LOADS)} loads | median ${median.toFixed(0)} ms (min ${Math.min(...firstRender).toFixed(0)}, max ${Math.max(...firstRender).toFixed(0)}) | all ${String(big.texts.length)} messages built and painted: ${raw.ms.toFixed(0)} ms | ${(median / raw.ms).toFixed(2)} | < 500 ms: ${median < 500 ? 'met' : 'MISSED'} |`,
      `| long tasks of those loads | ${taskSummary(loadTasks)} | | | |`,
      `| scrolling every message (after loading all pages, ${loadAllSeconds.toFixed(1)} s) | ${frameSummary(frames)}; ${taskSummary(scrollTasks)} | ${frameSummary(raw.frames)} | p95 ${(percentile(frames, 0.95) / percentile(raw.frames, 0.95)).toFixed(2)} | smooth |`,
      `| streaming ${String(RATE)} Markdown deltas/s for ${String(SECONDS)} s | ${taskSummary(streaming.longTasks)}; ${frameSummary(streaming.frames.map((frame) => frame.gap))} | ${taskSummary(rawStreaming.longTasks)}; ${frameSummary(rawStreaming.frames.map((frame) => frame.gap))} | longest task ${rawLongest === 0 ? '—' : (longestStream / rawLongest).toFixed(2)} | no task > 50 ms: ${longestStream <= 50 ? 'met' : 'MISSED'} |`,
      ``,
      `Wrote ${String(TURNS)} turns into the database in ${seedSeconds.toFixed(1)} s; UI build: ${values['web-root'] ?? 'apps/web/dist'}. Headless Debian Chromium, --disable-gpu (software rendering), ${String(availableParallelism())} cores shared with the server and the fake model.`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await browser.close();
    await stack.close();
  }
}

await main();
