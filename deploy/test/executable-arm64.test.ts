// The linux-arm64 executable, cross-built on an x64 machine (deploy/sea/build.ts --arch arm64) and
// run there under QEMU's user-mode emulator (deploy/sea/emulator.ts): its version manifest, the
// V8 code cache the build made by running its start under the emulator, doctor, and a served
// health check. Without an emulator the build carries no code cache and says why; every step
// here is then skipped with that reason, never passed.
import { copyFile, mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi, type TestContext } from 'vitest';
import { buildExecutable, type ExecutableBuild } from '../sea/build.ts';
import { builtFrom, environment, run } from './run-executable.ts';
import { api, serveExecutable } from './workbench-client.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

// On an arm64 machine the native build is executable.test.ts's.
const crossBuilt = process.platform === 'linux' && process.arch === 'x64';

let root: string;
let executable: string;
let built: ExecutableBuild;

/** QEMU's command prefix; skips the calling test, with the reason, when this machine has none. */
function emulator(context: TestContext): readonly string[] {
  const found = built.emulator;
  if (found === undefined) throw new Error('an arm64 build on x64 is a cross build');
  if (!found.ok) return context.skip(`the arm64 executable cannot run here: ${found.reason}`);
  return found.prefix;
}

beforeAll(async () => {
  if (!crossBuilt) return;
  root = await realpath(await mkdtemp(join(tmpdir(), 'youyou-executable-arm64-')));
  built = await buildExecutable(join(root, 'build'), 'arm64');
  const alone = join(root, 'alone');
  await mkdir(alone);
  executable = join(alone, 'youyou');
  await copyFile(built.executable, executable);
});

afterAll(async () => {
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

describe.skipIf(!crossBuilt)('the linux-arm64 executable, cross-built on x64', () => {
  it('is an arm64 ELF binary with its SHA-256 file beside it', async () => {
    expect(built.executable).toMatch(/youyou-linux-arm64$/);
    const bytes = await readFile(built.executable);
    // ELF, 64-bit, little-endian; e_machine 0xB7 is AArch64.
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
    expect(bytes.readUInt16LE(18)).toBe(0xb7);
    const [expected, name] = (await readFile(built.checksumFile, 'utf8')).trim().split(/\s+/);
    expect(name).toBe('youyou-linux-arm64');
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(expected);
  });

  it('reports under the emulator a version manifest naming arm64, its commit and its UI hash', async (context) => {
    const prefix = emulator(context);
    const home = join(root, 'home-version');
    await mkdir(home);
    const result = await run(
      executable,
      ['version', '--json'],
      dirname(executable),
      environment(home),
      prefix,
    );
    expect(result.code, result.stderr).toBe(0);
    const manifest = JSON.parse(result.stdout) as Record<string, unknown>;
    const tree = await builtFrom();
    expect(manifest).toMatchObject({
      arch: 'arm64',
      single_executable: true,
      node: process.version,
      commit: tree.commit,
      ui_hash: tree.uiHash,
    });
  });

  it('compiles its program with the code cache the build made under the emulator, and arm64 V8 accepts it', async (context) => {
    const prefix = emulator(context);
    const home = join(root, 'home-code-cache');
    await mkdir(home);
    const result = await run(
      executable,
      ['version'],
      dirname(executable),
      { ...environment(home), YOUYOU_REPORT_CODE_CACHE: '1' },
      prefix,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('youyou: code cache accepted');
    expect(result.stdout).toMatch(/^youyou \d+\.\d+\.\d+/);
  });

  it('runs doctor in an empty folder and serves a healthy workbench under the emulator', async (context) => {
    const prefix = emulator(context);
    const home = join(root, 'home-doctor');
    const cwd = join(root, 'empty-doctor');
    await mkdir(home);
    await mkdir(cwd);
    const doctor = await run(executable, ['doctor', '--json'], cwd, environment(home), prefix);
    expect(doctor.code, doctor.stderr).toBe(0);
    expect((JSON.parse(doctor.stdout) as { home: string }).home).toBe(join(home, '.youyou'));
    const served = await serveExecutable(executable, ['--workspace-root', cwd], {
      cwd,
      env: environment(home),
      prefix,
    });
    try {
      expect(await api(served.url, served.token, 'GET', '/api/health')).toMatchObject({ status: 'ok' });
    } finally {
      await served.stop();
    }
  });
});
