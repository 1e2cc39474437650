import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { fakeToolCallReply } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpServer } from '@youyou/contracts';
import { callServer, type ChildServer } from './support/child-server.ts';
import { crashServers } from './support/crash-servers.ts';

const FAULT_SERVER = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'mcp-fault-server.mjs');

/** Alive and not a zombie (a container's init may not reap what it inherits). */
async function isRunning(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${String(pid)}/stat`, 'utf8').catch(() => '');
  return stat !== '' && stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
}

async function waitFor<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let attempt = 0; attempt < 400; attempt += 1) {
    const value = await read();
    if (value !== undefined) return value;
    await sleep(25);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Ends a server and waits for its process to be gone (the next one refuses a data directory in use). */
async function stopped(server: ChildServer, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  await server.kill(signal);
  await waitFor(
    async () => (server.process.exitCode !== null || server.process.signalCode !== null ? true : undefined),
    'the server to end',
  );
}

const readPid = (path: string) => async (): Promise<number | undefined> => {
  const text = await readFile(path, 'utf8').catch(() => '');
  return /^\d+\s*$/.test(text) ? Number(text) : undefined;
};

describe.runIf(process.platform === 'linux')('tool processes and a kill -9 of the server', () => {
  const servers = crashServers({ fake: { fallback: 'echo' } });
  let toolDirectory: string;
  const strays: number[] = [];

  beforeAll(async () => {
    toolDirectory = join(servers.directories.home, 'tools', 'slow_write');
    await mkdir(toolDirectory, { recursive: true });
    await writeFile(
      join(toolDirectory, 'index.md'),
      '---\nversion: 1\nname: slow_write\nexecution:\n  command: ./run.sh\n  timeout_ms: 120000\n---\nWrites a file after a long while.\n',
    );
    // The tool and a grandchild it starts; "finished" is written only if the tool is left to run.
    await writeFile(
      join(toolDirectory, 'run.sh'),
      '#!/bin/sh\nread request\ncd "$YOUYOU_COMPONENT_DIR"\necho $$ > tool.pid\nsleep 30 &\necho $! > grandchild.pid\nwait\necho finished > finished\n',
    );
    await chmod(join(toolDirectory, 'run.sh'), 0o755);
  });

  // Runs before the servers' own cleanup: the strays go before their directories do.
  afterAll(() => {
    for (const pid of strays) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already ended: the behaviour under test.
      }
    }
  });

  it('a running tool and its children do not outlive a kill -9 of the server: the next start ends them', async () => {
    const first = await servers.start();
    await servers.addFakeProvider(first);
    const conversation = await callServer<{ id: string }>(first, 'POST', '/api/conversations', {});
    servers.fake.push(fakeToolCallReply('slow_write', {}));
    const sent = await callServer<{ run: { id: string } }>(
      first,
      'POST',
      `/api/conversations/${conversation.id}/messages`,
      { text: 'write it slowly' },
    );
    const tool = await waitFor(readPid(join(toolDirectory, 'tool.pid')), 'the tool to start');
    const grandchild = await waitFor(readPid(join(toolDirectory, 'grandchild.pid')), 'its child');
    strays.push(tool, grandchild);

    await first.kill('SIGKILL');
    await waitFor(
      async () => (first.process.exitCode !== null || first.process.signalCode !== null ? true : undefined),
      'the server to die',
    );
    // Without a sweep they would run on to the end: that is what the next start must prevent.
    expect(await isRunning(tool)).toBe(true);
    expect(await isRunning(grandchild)).toBe(true);

    const second = await servers.start();
    await waitFor(async () => ((await isRunning(tool)) ? undefined : true), 'the tool to be ended');
    await waitFor(async () => ((await isRunning(grandchild)) ? undefined : true), 'its child to be ended');
    expect(second.logs()).toContain('ended processes left running by a server that was killed');
    const run = await callServer<{ status: string }>(second, 'GET', `/api/runs/${sent.run.id}`);
    expect(run.status).toBe('interrupted');
    await sleep(200);
    await expect(readFile(join(toolDirectory, 'finished'), 'utf8')).rejects.toThrow();
    expect(await isRunning(second.process.pid ?? 0)).toBe(true);
    await stopped(second);
  }, 60_000);

  it('a stdio MCP server does not outlive a kill -9 of the server either, and its status shows its process id', async () => {
    const first = await servers.start();
    // The server keeps a timer: left alone it runs on, re-parented to pid 1.
    const added = await callServer<McpServer>(first, 'POST', '/api/mcp/servers', {
      name: 'lingering',
      transport: { type: 'stdio', command: process.execPath, args: [FAULT_SERVER, '--linger'] },
    });
    await callServer(first, 'POST', `/api/mcp/servers/${added.id}/connect`, {});
    const status = await waitFor(async () => {
      const server = await callServer<McpServer>(first, 'GET', `/api/mcp/servers/${added.id}`);
      return server.status.state === 'connected' ? server.status : undefined;
    }, 'the MCP server to connect');
    const pid = status.pid;
    expect(pid).toEqual(expect.any(Number));
    strays.push(pid!);

    await stopped(first, 'SIGKILL');
    expect(await isRunning(pid!)).toBe(true);

    const second = await servers.start();
    await waitFor(async () => ((await isRunning(pid!)) ? undefined : true), 'the MCP server to be ended');
    expect(second.logs()).toContain('ended processes left running by a server that was killed');
  }, 60_000);
});
