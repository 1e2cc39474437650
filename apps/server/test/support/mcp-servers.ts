import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

/** The reference "everything" server's entry point, from the npm package. */
export const EVERYTHING_SERVER = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);

/** The reference filesystem server's entry point. */
export const FILESYSTEM_SERVER = join(
  dirname(require.resolve('@modelcontextprotocol/server-filesystem/package.json')),
  'dist',
  'index.js',
);

/** A server on the SDK whose tool list changes at runtime (`add_tool`). */
export const DYNAMIC_SERVER = join(fixtures, 'mcp-dynamic-server.mjs');

/** Wraps a stdio server: records what the client sends and both pids (see the fixture). */
export const STDIO_RECORDER = join(fixtures, 'mcp-stdio-recorder.mjs');

/** A stdio transport config that runs `args` under the recorder, logging to `log`. */
export function recordedStdio(log: string, args: string[]) {
  return {
    type: 'stdio' as const,
    command: process.execPath,
    args: [STDIO_RECORDER, log, process.execPath, ...args],
  };
}

/** The JSON-RPC messages the recorder saw, in order. */
export async function recordedMessages(log: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(log, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

export async function recordedPids(log: string): Promise<{ recorder: number; server: number }> {
  return JSON.parse(await readFile(`${log}.pids`, 'utf8')) as { recorder: number; server: number };
}

/** True while a process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `check` until it returns something other than undefined/false, or fails after `ms`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`condition not met in ${ms} ms${last === undefined ? '' : `: ${String(last)}`}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The everything server over Streamable HTTP on a free loopback port; `close()` stops it. */
export async function startEverythingOverHttp(): Promise<{ url: string; close: () => Promise<void> }> {
  const { createServer } = await import('node:net');
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address() as { port: number };
      probe.close(() => resolve(address.port));
    });
  });
  const child: ChildProcess = spawn(process.execPath, [EVERYTHING_SERVER, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening on port')) resolve();
    });
    child.once('exit', (code) =>
      reject(new Error(`the everything server exited (${String(code)}): ${output}`)),
    );
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
