import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const MAIN = resolve(here, '../../src/main.ts');
const REPOSITORY = resolve(here, '../../../..');

/** `youyou serve` in a child process: for kill -9 and for two servers on one database. */
export interface ChildServer {
  url: string;
  token: string;
  process: ChildProcess;
  /** Everything it wrote to stderr (its logs). */
  logs(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export interface ChildServerOptions {
  home: string;
  dataDirectory: string;
  workspaceRoot: string;
  databaseUrl?: string;
  extraArguments?: string[];
  /** A script to run with plain node (the bundle) instead of src/main.ts through tsx. */
  entry?: string;
  /**
   * Lightweight tasks fall back to the chat model (`models.lightweight_fallback`); default false,
   * as in `startTestServer`, so that titles do not take the fake model's scripted replies.
   */
  lightweightFallback?: boolean;
}

/**
 * Starts `src/main.ts serve` with tsx on a free port and waits for its login URL.
 *
 * @example
 * const child = await startChildServer({ home, dataDirectory, workspaceRoot });
 * await child.kill('SIGKILL');
 */
export async function startChildServer(options: ChildServerOptions): Promise<ChildServer> {
  const child = spawn(
    process.execPath,
    [
      ...(options.entry === undefined
        ? ['--conditions=@youyou/source', '--import', 'tsx', MAIN]
        : [options.entry]),
      'serve',
      '--port',
      '0',
      '--data-dir',
      options.dataDirectory,
      '--workspace-root',
      options.workspaceRoot,
      '--log-level',
      'info',
      ...(options.databaseUrl === undefined ? [] : ['--database-url', options.databaseUrl]),
      ...(options.extraArguments ?? []),
    ],
    {
      cwd: REPOSITORY,
      env: { ...process.env, YOUYOU_HOME: options.home, NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const login = await new Promise<string>((resolveLogin, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the server did not start:\n${stdout}\n${stderr}`)),
      20_000,
    );
    const check = (): void => {
      const match = /(http:\/\/[^\s/]+)\/\?token=(\S+)/.exec(stdout);
      if (match !== null) {
        clearTimeout(timer);
        resolveLogin(match[0]);
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}:\n${stdout}\n${stderr}`));
    });
  });
  const url = new URL(login);
  const address = { url: url.origin, token: url.searchParams.get('token') ?? '' };
  if (options.lightweightFallback !== true)
    await callServer(address, 'PATCH', '/api/settings', { 'models.lightweight_fallback': false });
  return {
    ...address,
    process: child,
    logs: () => stderr,
    kill: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** A JSON request to a server, with its token. */
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
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}
