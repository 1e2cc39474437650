// What the executable tests share: running a built executable as a user would (optionally under
// an emulator), and what its version manifest must say about the tree it was built from.
import { execFile, spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { packFolder } from '../sea/web-pack.ts';

const REPOSITORY = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** A fresh HOME and nothing of the workspace run (no NODE_OPTIONS). */
export function environment(home: string): NodeJS.ProcessEnv {
  return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8' };
}

/**
 * Runs `file argv…` to its end; `prefix` runs it under an emulator (emulator.ts's prefix).
 *
 * @example
 * const { code, stdout } = await run(executable, ['version', '--json'], cwd, environment(home));
 */
export async function run(
  file: string,
  argv: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  prefix: readonly string[] = [],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const [command = file, ...leading] = [...prefix, file];
  try {
    const { stdout, stderr } = await promisify(execFile)(command, [...leading, ...argv], {
      cwd,
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : 1,
      stdout: failed.stdout ?? '',
      stderr: failed.stderr ?? '',
    };
  }
}

/**
 * What a build of this tree must carry in its version manifest: `git rev-parse HEAD` (`unknown`
 * outside git) and the hash of apps/web/dist packed as the build packs it (web-pack.ts).
 */
export async function builtFrom(): Promise<{ commit: string; uiHash: string }> {
  const git = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: REPOSITORY, encoding: 'utf8' });
  const commit = git.status === 0 ? git.stdout.trim() : 'unknown';
  const { hash } = await packFolder(join(REPOSITORY, 'apps', 'web', 'dist'));
  return { commit, uiHash: hash };
}
