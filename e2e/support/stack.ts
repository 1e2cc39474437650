import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWorkbenchClient, type WorkbenchClient } from '@youyou/client';
import { startServer, type RunningServer } from '@youyou/server';
import { startFakeOpenAI, type FakeReply, type FakeServer, type RecordedRequest } from '@youyou/testing';
import { isWebAppBuilt, isWebAppCurrent, webAppDirectory } from '@youyou/web';
import { fakeModelReply, LOOKUP_TOOL } from './fake-model.ts';

/** The real workbench server with the built UI, a fake OpenAI-compatible model behind it, temp directories. */
export interface Stack {
  server: RunningServer;
  fake: FakeServer;
  root: string;
  /** The server's API through @youyou/client, with the token. */
  client: WorkbenchClient;
  close(): Promise<void>;
}

/**
 * Builds the web app when it has not been built or is older than its sources (CI builds it before
 * the tests). Test files run in
 * parallel workers: one builds under a lock directory, the others wait for it.
 */
export function ensureWebAppBuilt(): void {
  // YOUYOU_E2E_REBUILD: rebuild once per test run (workers of one run share their parent process).
  const rebuiltMarker = join(tmpdir(), `youyou-e2e-rebuilt-${String(process.ppid)}`);
  const rebuild = process.env['YOUYOU_E2E_REBUILD'] !== undefined && !existsSync(rebuiltMarker);
  // A build older than the app's sources (left from before a merge) is built again.
  if (isWebAppCurrent() && !rebuild) return;
  const lock = join(tmpdir(), 'youyou-e2e-web-build.lock');
  try {
    mkdirSync(lock);
  } catch {
    // Another worker is building: wait for its lock to go, then use its build.
    const deadline = Date.now() + 120_000;
    while (existsSync(lock) && Date.now() < deadline)
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    if (isWebAppBuilt()) return;
    throw new Error('waited for another worker to build the web app, and it did not');
  }
  try {
    const result = spawnSync(
      process.execPath,
      ['node_modules/vite/bin/vite.js', 'build', 'apps/web', '--logLevel', 'warn'],
      {
        stdio: 'inherit',
        // Under Vitest NODE_ENV is `test`, which would give React's development build.
        env: { ...process.env, NODE_ENV: 'production' },
      },
    );
    if (result.status !== 0) throw new Error('vite build of apps/web failed');
    if (process.env['YOUYOU_E2E_REBUILD'] !== undefined) writeFileSync(rebuiltMarker, '');
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

async function writeLookupTool(home: string): Promise<void> {
  const folder = join(home, 'tools', LOOKUP_TOOL);
  await mkdir(folder, { recursive: true });
  await writeFile(
    join(folder, 'index.md'),
    `---\nversion: 1\nname: ${LOOKUP_TOOL}\nparameters:\n  - name: query\n    type: string\n    required: true\nexecution:\n  command: ./run.sh\n---\nLooks a query up.\n`,
  );
  await writeFile(join(folder, 'run.sh'), '#!/bin/sh\nread request\necho "found: $request"\n');
  await chmod(join(folder, 'run.sh'), 0o755);
}

/**
 * Starts the stack: the fake model on loopback, the workbench server on loopback with a temp data
 * directory and a temp YouYou home (never the real ~/.youyou), and the fake registered as a provider.
 */
export async function startStack(
  options: {
    provider?: boolean;
    reply?: (request: RecordedRequest) => FakeReply;
    /** Titles and card-answer classification by the chat model; default false, as in the server tests. */
    lightweightFallback?: boolean;
    /** A PostgreSQL database for the server; default: SQLite in the temp data directory. */
    databaseUrl?: string;
  } = {},
): Promise<Stack> {
  ensureWebAppBuilt();
  const root = await mkdtemp(join(tmpdir(), 'youyou-e2e-'));
  const home = join(root, 'home');
  await mkdir(home, { recursive: true });
  await writeLookupTool(home);
  const fake = await startFakeOpenAI({ fallback: options.reply ?? fakeModelReply });
  const server = await startServer({
    port: 0,
    home,
    dataDirectory: join(root, 'workbench'),
    workspaceRoots: [root],
    webRoot: webAppDirectory,
    logLevel: 'warn',
    logDestination: { write: () => undefined },
    ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }),
  });
  if (options.lightweightFallback !== true)
    await server.services.settings.set('user', '', 'models.lightweight_fallback', false);
  const client = createWorkbenchClient({ baseUrl: server.url, token: server.token });
  if (options.provider !== false) {
    await client.createProvider({
      name: 'fake',
      kind: 'openai-compatible',
      base_url: fake.url,
      api_key: 'test-key',
      models: [{ id: 'fake-model' }],
    });
  }
  return {
    server,
    fake,
    root,
    client,
    close: async () => {
      await server.close();
      await fake.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
