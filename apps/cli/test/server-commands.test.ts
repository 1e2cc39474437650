import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../src/cli-io.ts';
import { main } from '../src/main.ts';

function recording(cwd: string, environment: NodeJS.ProcessEnv): CliIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    stdout: (text: string) => void (io.out += text),
    stderr: (text: string) => void (io.err += text),
    environment,
    cwd,
  };
  return io;
}

describe('youyou serve, migrate and version', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'youyou-cli-server-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('version names the CLI and the server', async () => {
    const io = recording(root, {});
    expect(await main(['version'], io)).toBe(0);
    expect(io.out).toMatch(/^youyou \d+\.\d+\.\d+\nyouyou-server \d+\.\d+\.\d+/);
  });

  it('migrate prepares the workbench database in a data directory', async () => {
    const io = recording(root, { YOUYOU_HOME: join(root, 'home') });
    expect(await main(['migrate', '--data-dir', 'data'], io)).toBe(0);
    expect(io.out).toMatch(/^applied: 0001-initial(, \S+)* \(sqlite\)$/m);
  });

  it('serve --help explains serve; a bad flag is a usage error', async () => {
    const help = recording(root, {});
    expect(await main(['serve', '--help'], help)).toBe(0);
    expect(help.out).toContain('--database-url');
    const bad = recording(root, {});
    expect(await main(['serve', '--port', 'x'], bad)).toBe(2);
  });
});
