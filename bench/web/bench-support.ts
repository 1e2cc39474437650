/**
 * What the web benchmarks share: the real server with a built UI (the current build, or another
 * `--web-root` to measure beside it) and the fake model, a conversation written straight into the
 * server's database, and the Chromium page signed in.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Page } from 'playwright-core';
import { createWorkbenchClient, type WorkbenchClient } from '@youyou/client';
import { startServer, type RunningServer } from '@youyou/server';
import { startFakeOpenAI, type FakeReply, type FakeServer, type RecordedRequest } from '@youyou/testing';
import { webAppDirectory } from '@youyou/web';
import { openBrowser } from '../../e2e/support/browser.ts';
import { ensureWebAppBuilt } from '../../e2e/support/stack.ts';

export interface BenchStack {
  server: RunningServer;
  fake: FakeServer;
  client: WorkbenchClient;
  /** The server's SQLite file. */
  databaseFile: string;
  close(): Promise<void>;
}

/**
 * Starts the workbench server on loopback (temp data directory and home) serving `webRoot`, the
 * fake model answering with `reply`, registered as the provider `fake`.
 */
export async function startBenchStack(options: {
  reply: (request: RecordedRequest) => FakeReply;
  webRoot?: string;
}): Promise<BenchStack> {
  if (options.webRoot === undefined) ensureWebAppBuilt();
  const root = await mkdtemp(join(tmpdir(), 'youyou-bench-web-'));
  const home = join(root, 'home');
  await mkdir(home, { recursive: true });
  const fake = await startFakeOpenAI({ fallback: options.reply });
  const dataDirectory = join(root, 'workbench');
  const server = await startServer({
    port: 0,
    home,
    dataDirectory,
    workspaceRoots: [root],
    webRoot: options.webRoot ?? webAppDirectory,
    logLevel: 'warn',
    logDestination: { write: () => undefined },
  });
  const client = createWorkbenchClient({ baseUrl: server.url, token: server.token });
  await client.createProvider({
    name: 'fake',
    kind: 'openai-compatible',
    base_url: fake.url,
    api_key: 'test-key',
    models: [{ id: 'fake-model' }],
  });
  return {
    server,
    fake,
    client,
    databaseFile: join(dataDirectory, 'youyou.db'),
    close: async () => {
      await server.close();
      await fake.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** An answer of a realistic shape: a paragraph and a list, and a code block when asked for code. */
export function answerOf(question: string): string {
  const code = question.includes('code')
    ? '\n\n```ts\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n```\n'
    : '';
  return `Here is what I know about ${question.slice(0, 60)}. It has **several** parts, each with a short note.\n\n- first point\n- second point with \`inline code\`\n- third point${code}\n\nThat is all.`;
}

/** The question of turn `index` (from 1): every tenth asks for code. */
export function questionOf(index: number): string {
  return index % 10 === 0
    ? `Turn ${String(index)}: show me code`
    : `Turn ${String(index)}: tell me about item ${String(index)}`;
}

/**
 * Writes a finished conversation of `turns` runs straight into the server's database, in one
 * transaction: the runs and the events a completed turn leaves in the event log (run created, its
 * phases, the answer as one delta, run completed). The server reads conversations from the log, so
 * the UI sees it as it would see one seeded through the API — minutes faster (5,000 API turns took
 * 931 s, each turn costing more as the conversation grows).
 */
export function writeConversation(
  databaseFile: string,
  title: string,
  turns: number,
): { id: string; texts: string[] } {
  const db = new DatabaseSync(databaseFile);
  db.exec('PRAGMA busy_timeout = 10000');
  const id = randomUUID();
  const texts: string[] = [];
  const started = Date.now() - turns * 1000;
  const insertRun = db.prepare(
    `INSERT INTO runs (id, conversation_id, previous_run_id, user_message_id, kind, profile_id, model_id, status, phase, usage, cancel_requested, created_at, started_at, ended_at)
     VALUES (?, ?, ?, ?, 'conversation', 'default', 'fake/fake-model', 'completed', 'done', ?, 0, ?, ?, ?)`,
  );
  const insertEvent = db.prepare(
    'INSERT INTO events (conversation_id, seq, run_id, ts, v, type, payload) VALUES (?, ?, ?, ?, 1, ?, ?)',
  );
  db.exec('BEGIN');
  try {
    let seq = 0;
    let previous: string | null = null;
    let ts = started;
    db.prepare(
      `INSERT INTO conversations (id, title, title_source, last_seq, created_at, updated_at, read_seq) VALUES (?, ?, 'user', 0, ?, ?, 0)`,
    ).run(id, title, started, started);
    for (let index = 1; index <= turns; index += 1) {
      const question = questionOf(index);
      const answer = answerOf(question);
      texts.push(question, answer);
      const runId = randomUUID();
      const userMessageId = randomUUID();
      const usage = {
        input_tokens: 100,
        output_tokens: 40,
        tool_calls: 0,
        model_calls: 1,
        duration_ms: 20,
      };
      ts += 1000;
      insertRun.run(runId, id, previous, userMessageId, JSON.stringify(usage), ts, ts, ts + 20);
      const events: [string, unknown][] = [
        [
          'run.created',
          {
            run: {
              id: runId,
              conversation_id: id,
              parent_run_id: null,
              previous_run_id: previous,
              user_message_id: userMessageId,
              kind: 'conversation',
              status: 'pending',
              phase: 'pending',
              model_id: 'fake/fake-model',
              created_at: new Date(ts).toISOString(),
            },
            input: { text: question, attachments: [], skills: [] },
            user_message_id: userMessageId,
            assistant_message_id: runId,
          },
        ],
        ['conversation.updated', { active_run_id: runId, in_flight_run_id: runId }],
        ['run.phase', { phase: 'thinking', status: 'running' }],
        ['run.phase', { phase: 'responding', status: 'running' }],
        ['message.delta', { message_id: runId, text: answer }],
        ['conversation.updated', { in_flight_run_id: null }],
        ['run.completed', { message_id: runId, usage, finish_reason: 'stop' }],
      ];
      for (const [type, payload] of events) {
        seq += 1;
        insertEvent.run(id, seq, runId, ts, type, JSON.stringify(payload));
      }
      previous = runId;
    }
    db.prepare('UPDATE conversations SET last_seq = ?, active_run_id = ?, updated_at = ? WHERE id = ?').run(
      seq,
      previous,
      ts,
      id,
    );
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  } finally {
    db.close();
  }
  return { id, texts };
}

export function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}

/**
 * Chromium (see e2e/support/browser.ts) signed in to `stack`'s UI. The benchmarks' in-page probes
 * are strings (evaluated code), which the page's CSP would refuse: it is bypassed. `initScript`
 * runs in every page before its own scripts.
 */
export async function openSignedIn(
  stack: BenchStack,
  initScript?: string,
): Promise<{ page: Page; close: () => Promise<void> }> {
  const browser = await openBrowser({ bypassCSP: true });
  if (initScript !== undefined) await browser.page.addInitScript(initScript);
  await browser.page.goto(stack.server.loginUrl);
  await browser.page.getByTestId('composer-input').waitFor();
  return { page: browser.page, close: browser.close };
}

/**
 * Time to first render over `loads` cold loads of `url`: navigation start → an assistant message
 * and `marker` (the newest turn's text) painted.
 */
export async function firstRenders(
  page: Page,
  url: string,
  loads: number,
  marker: string,
  afterEach?: () => Promise<void>,
): Promise<number[]> {
  const times: number[] = [];
  for (let load = 0; load < loads; load += 1) {
    await page.goto('about:blank');
    await page.goto(url);
    await page.waitForFunction(
      `document.querySelector('[data-role="assistant"]') !== null && document.body.textContent.includes(${JSON.stringify(marker)})`,
      undefined,
      { polling: 'raf', timeout: 60_000 },
    );
    times.push((await page.evaluate('performance.now()')) as number);
    await afterEach?.();
  }
  return times;
}

/** Loads every earlier page by scrolling the message list to the top until turn 1 is there; seconds. */
export async function loadEveryPage(page: Page): Promise<number> {
  const started = performance.now();
  await page.evaluate(`(async () => {
    const scroller = document.querySelector('[data-testid="message-scroller"]');
    if (scroller === null) throw new Error('no scroller');
    const deadline = performance.now() + 600000;
    while (performance.now() < deadline) {
      scroller.scrollTop = 0;
      await new Promise((resolve) => setTimeout(resolve, 50));
      const first = scroller.querySelector('[data-index="0"]');
      if (first !== null && first.textContent.includes('Turn 1:')) return;
    }
    throw new Error('the earliest turn never loaded');
  })()`);
  return (performance.now() - started) / 1000;
}

/** Frame times scrolling `selector` from the top to the bottom, 240 px per animation frame. */
export async function scrollFrames(page: Page, selector: string): Promise<number[]> {
  return (await page.evaluate(`(async () => {
    const scroller = document.querySelector(${JSON.stringify(selector)});
    scroller.scrollTop = 0;
    await new Promise((resolve) => setTimeout(resolve, 300));
    const times = [];
    let last = performance.now();
    await new Promise((resolve) => {
      const step = (now) => {
        times.push(now - last);
        last = now;
        scroller.scrollTop = scroller.scrollTop + 240;
        if (scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 2 || times.length > 40000) resolve();
        else requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    });
    return times.slice(1);
  })()`)) as number[];
}
