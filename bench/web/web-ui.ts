/**
 * Web UI benchmark (issue 6): the app shell's initial JavaScript (gzip; budget 250 KB), and a
 * 2,000-message conversation in Debian Chromium — time to first render, and frame times while
 * scrolling through all of it. Run by `npm run bench` (EXTRA_BENCHMARKS) or alone:
 *   node --import tsx bench/web/web-ui.ts [--turns 1000]
 */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { IN_FLIGHT_STATUSES } from '@youyou/contracts';
import { lastUserText, type FakeReply, type RecordedRequest } from '@youyou/testing';
import { webAppDirectory } from '@youyou/web';
import { openBrowser } from '../../e2e/support/browser.ts';
import { ensureWebAppBuilt, startStack, type Stack } from '../../e2e/support/stack.ts';
import { measureShellSize } from './shell-size.ts';

const SHELL_BUDGET_BYTES = 250 * 1024;
const { values } = parseArgs({
  options: { turns: { type: 'string', default: '1000' }, loads: { type: 'string', default: '5' } },
});
const turns = Number(values.turns);
const loads = Number(values.loads);

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}

function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

/** Answers of a realistic shape, at once: a paragraph and a list, and a code block every tenth turn. */
function benchReply(request: RecordedRequest): FakeReply {
  const question = lastUserText(request.body);
  const code = question.includes('code')
    ? '\n\n```ts\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n```\n'
    : '';
  const text = `Here is what I know about ${question.slice(0, 60)}. It has **several** parts, each with a short note.\n\n- first point\n- second point with \`inline code\`\n- third point${code}\n\nThat is all.`;
  return { type: 'stream', steps: [{ type: 'text', text }] };
}

/** Seeds a conversation of `turns` runs through the API (each answer a few Markdown blocks). */
async function seedConversation(stack: Stack): Promise<string> {
  const conversation = await stack.client.createConversation({ title: 'Long conversation' });
  for (let index = 1; index <= turns; index += 1) {
    const text =
      index % 10 === 0
        ? `Turn ${String(index)}: show me code`
        : `Turn ${String(index)}: tell me something about item ${String(index)}`;
    const sent = await stack.client.sendMessage(conversation.id, { text });
    for (;;) {
      const run = await stack.client.getRun(sent.run.id);
      if (!IN_FLIGHT_STATUSES.has(run.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }
  return conversation.id;
}

async function main(): Promise<void> {
  ensureWebAppBuilt();
  const shell = await measureShellSize(webAppDirectory);
  const stack = await startStack({ reply: benchReply });
  // The benchmark's in-page probes are strings (evaluated code); the page's CSP would refuse them.
  const browser = await openBrowser({ bypassCSP: true });
  try {
    const seedStarted = performance.now();
    const conversationId = await seedConversation(stack);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const { page } = browser;
    await page.goto(stack.server.loginUrl);
    await page.getByTestId('composer-input').waitFor();
    const url = `${stack.server.url}/#/c/${conversationId}`;

    // Time to first render: navigation start → the newest turns painted, over several cold loads.
    const firstRender: number[] = [];
    for (let load = 0; load < loads; load += 1) {
      await page.goto('about:blank');
      await page.goto(url);
      await page.waitForFunction(
        'document.querySelectorAll(\'[data-role="assistant"]\').length > 0',
        undefined,
        {
          polling: 'raf',
          timeout: 30_000,
        },
      );
      firstRender.push((await page.evaluate('performance.now()')) as number);
    }

    // Load every earlier page by scrolling to the top until the first turn is there.
    const loadAllStarted = performance.now();
    await page.evaluate(`(async () => {
      const scroller = document.querySelector('[data-testid="message-scroller"]');
      if (scroller === null) throw new Error('no scroller');
      const deadline = performance.now() + 90000;
      while (performance.now() < deadline) {
        scroller.scrollTop = 0;
        await new Promise((resolve) => setTimeout(resolve, 50));
        const first = scroller.querySelector('[data-index="0"]');
        if (first !== null && first.textContent.includes('Turn 1:')) return;
      }
      throw new Error('the earliest turn never loaded');
    })()`);
    const loadAllSeconds = (performance.now() - loadAllStarted) / 1000;

    // Scroll frame times: from the top to the bottom, a fixed step per animation frame.
    const frames = (await page.evaluate(`(async () => {
      const scroller = document.querySelector('[data-testid="message-scroller"]');
      scroller.scrollTop = 0;
      await new Promise((resolve) => setTimeout(resolve, 300));
      const times = [];
      let last = performance.now();
      await new Promise((resolve) => {
        const step = (now) => {
          times.push(now - last);
          last = now;
          scroller.scrollTop = scroller.scrollTop + 240;
          if (scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 2 || times.length > 20000) resolve();
          else requestAnimationFrame(step);
        };
        requestAnimationFrame(step);
      });
      return { times: times.slice(1), height: scroller.scrollHeight, rows: document.querySelectorAll('[data-run-id]').length };
    })()`)) as { times: number[]; height: number; rows: number };
    const sorted = [...frames.times].sort((a, b) => a - b);
    const slow = frames.times.filter((time) => time > 1000 / 60 + 1).length;
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
    const lines = [
      `App shell initial JS: ${kb(shell.jsBytes)} raw, ${kb(shell.jsGzip)} gzip (budget ${kb(SHELL_BUDGET_BYTES)}: ${shell.jsGzip <= SHELL_BUDGET_BYTES ? 'within' : 'OVER'}); CSS ${kb(shell.cssGzip)} gzip`,
      ...shell.files.map((file) => `  ${file.path}: ${kb(file.bytes)} raw, ${kb(file.gzip)} gzip`),
      `Conversation: ${String(turns * 2)} messages (${String(turns)} turns), seeded through the API in ${seedSeconds.toFixed(1)} s`,
      `Time to first render (navigation start → newest turns painted), ${String(loads)} loads: median ${median(firstRender).toFixed(0)} ms, min ${Math.min(...firstRender).toFixed(0)} ms, max ${Math.max(...firstRender).toFixed(0)} ms`,
      `Loading every earlier page by scrolling up: ${loadAllSeconds.toFixed(1)} s`,
      `Scrolling the whole conversation (${String(frames.height)} px, 240 px per frame, ${String(frames.times.length)} frames, ${String(frames.rows)} rows in the DOM at the end): frame time p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p95 ${percentile(sorted, 0.95).toFixed(1)} ms, p99 ${percentile(sorted, 0.99).toFixed(1)} ms, max ${(sorted.at(-1) ?? 0).toFixed(1)} ms; ${((100 * slow) / Math.max(1, frames.times.length)).toFixed(1)}% of frames over 16.7 ms`,
      `(headless Debian Chromium, --disable-gpu, software rendering; ${String(availableParallelism())} cores)`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await browser.close();
    await stack.close();
  }
}

await main();
