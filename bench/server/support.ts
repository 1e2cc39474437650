// Shared pieces of the server benchmarks: child processes, a PostgreSQL schema, SSE, statistics.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWorkbenchClient, readServerSentEvents, type WorkbenchClient } from '@youyou/client';
import pg from 'pg';

export const REPOSITORY = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FAKE_CLI = join(REPOSITORY, 'packages/testing/src/fake-servers/cli.ts');

/** Where the PostgreSQL rows run; unreachable means they are reported as skipped. */
export const BENCH_DATABASE_URL =
  process.env['YOUYOU_BENCH_DATABASE_URL'] ??
  process.env['YOUYOU_TEST_DATABASE_URL'] ??
  'postgres://postgres@127.0.0.1:5432/test';

export function median(values: readonly number[]): number {
  return percentile(values, 0.5);
}

export function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}

export function format(value: number, digits = 0): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export async function temporaryFolder(label: string): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), `youyou-bench-${label}-`));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** A fresh schema on the benchmark PostgreSQL, or undefined when there is none. */
export async function postgresSchema(): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  const schema = `yy_bench_${randomBytes(5).toString('hex')}`;
  const client = new pg.Client({ connectionString: BENCH_DATABASE_URL });
  try {
    await client.connect();
  } catch {
    return undefined;
  }
  try {
    await client.query(`create schema ${schema}`);
    await client.query('create extension if not exists pg_trgm').catch(() => {});
  } finally {
    await client.end();
  }
  const url = new URL(BENCH_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema},public`);
  return {
    url: url.toString(),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: BENCH_DATABASE_URL });
      await dropper.connect();
      await dropper.query(`drop schema if exists ${schema} cascade`);
      await dropper.end();
    },
  };
}

/** A child process that printed a line matching `ready`. */
export interface Child {
  process: ChildProcess;
  match: RegExpExecArray;
  stop(): Promise<void>;
}

export async function startChild(
  commandArguments: readonly string[],
  ready: RegExp,
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<Child> {
  // Our packages resolve to their sources (the `@youyou/source` condition of their exports).
  const child = spawn(process.execPath, ['--conditions=@youyou/source', ...commandArguments], {
    cwd: REPOSITORY,
    env: { ...process.env, NODE_OPTIONS: '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const match = await new Promise<RegExpExecArray>((resolveMatch, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no ready line from ${commandArguments.join(' ')}:\n${stderr}`)),
      options.timeoutMs ?? 30_000,
    );
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const found = ready.exec(stdout);
      if (found !== null) {
        clearTimeout(timer);
        resolveMatch(found);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}: ${stderr}`));
    });
  });
  return {
    process: child,
    match,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The fake OpenAI-compatible model in its own process, answering every request with `reply`. */
export async function startFakeModel(
  reply: unknown,
  folder: string,
): Promise<{ url: string; stop(): Promise<void> }> {
  const script = join(folder, `fake-${randomBytes(3).toString('hex')}.json`);
  await writeFile(script, JSON.stringify({ fallback: reply }));
  const child = await startChild(
    ['--import', 'tsx', FAKE_CLI, 'openai', '--port', '0', '--script', script],
    /(http:\S+)\n/,
  );
  return { url: child.match[1] as string, stop: child.stop };
}

/** A workbench server (the bundle by default) in its own process. */
export interface ServerChild {
  url: string;
  token: string;
  pid: number;
  /** Milliseconds from spawn to the printed login URL. */
  listeningMs: number;
  stop(): Promise<void>;
}

export async function startServerChild(options: {
  entry: string[];
  dataDirectory: string;
  home: string;
  databaseUrl?: string;
}): Promise<ServerChild> {
  const started = performance.now();
  const child = await startChild(
    [
      ...options.entry,
      'serve',
      '--port',
      '0',
      '--data-dir',
      options.dataDirectory,
      '--log-level',
      'warn',
      ...(options.databaseUrl === undefined ? [] : ['--database-url', options.databaseUrl]),
    ],
    /(http:\/\/[^\s/]+)\/\?token=(\S+)/,
    { env: { YOUYOU_HOME: options.home } },
  );
  return {
    url: child.match[1] as string,
    token: child.match[2] as string,
    pid: child.process.pid as number,
    listeningMs: performance.now() - started,
    stop: child.stop,
  };
}

/**
 * The workbench API of a server child, through @youyou/client.
 *
 * @example
 * const conversation = await clientOf(server).createConversation();
 */
export function clientOf(server: { url: string; token: string }): WorkbenchClient {
  return createWorkbenchClient({ baseUrl: server.url, token: server.token });
}

/** Resident memory of a process, in MB (Linux /proc). */
export async function residentMegabytes(pid: number): Promise<number> {
  return (await memoryOf(pid)).residentMb;
}

/**
 * A process's resident memory (VmRSS) and the private part of it (RssAnon: its heap, stacks and
 * other anonymous pages; the rest is the executable's file pages, shared and reclaimable).
 */
export async function memoryOf(pid: number): Promise<{ residentMb: number; privateMb: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) =>
    Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN) / 1024;
  return { residentMb: field('VmRSS'), privateMb: field('RssAnon') };
}

export interface SseEvent {
  seq: number;
  run_id: string | null;
  type: string;
  payload: { text?: string };
}

/**
 * Opens an SSE stream and hands each event to `onEvent` until it returns true.
 * Resolves with the time the response headers arrived and the time the stream was stopped.
 */
export async function streamEvents(
  url: string,
  token: string,
  lastEventId: number,
  onEvent: (event: SseEvent) => boolean,
): Promise<{ openedAt: number; endedAt: number }> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { authorization: `Bearer ${token}`, 'last-event-id': String(lastEventId) },
    signal: controller.signal,
  });
  const openedAt = performance.now();
  try {
    // The client's SSE path (eventsource-parser): what a real consumer of the stream runs.
    for await (const message of readServerSentEvents(response.body as ReadableStream<Uint8Array>, {
      signal: controller.signal,
    })) {
      if (onEvent(JSON.parse(message.data) as SseEvent)) {
        const endedAt = performance.now();
        controller.abort();
        return { openedAt, endedAt };
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  }
  return { openedAt, endedAt: performance.now() };
}

/** A JSON request to a workbench (in process or a child) with its token; a non-2xx answer throws. */
export async function callServer<T>(
  server: { url: string; token: string },
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${server.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${String(response.status)} ${text}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}
