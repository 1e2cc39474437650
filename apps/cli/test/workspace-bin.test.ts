import { execFileSync, spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DoctorReport } from '../src/doctor-command.ts';

const workspace = fileURLToPath(new URL('../../../', import.meta.url));

// A checkout as `git clone` + `npm install` leaves it: the tracked files of the packages the CLI
// runs, no dist/ anywhere, and node_modules whose @youyou links point into this copy (every other
// installed package is linked from the real install, so nothing is downloaded).
async function freshCheckout(root: string): Promise<void> {
  const tracked = execFileSync('git', ['ls-files', 'package.json', 'packages', 'apps/cli', 'apps/server'], {
    cwd: workspace,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((file) => file !== '' && existsSync(join(workspace, file)));
  for (const file of tracked) {
    await mkdir(dirname(join(root, file)), { recursive: true });
    await cp(join(workspace, file), join(root, file));
  }
  await mkdir(join(root, 'node_modules', '@youyou'), { recursive: true });
  for (const entry of await readdir(join(workspace, 'node_modules'))) {
    if (entry !== '@youyou')
      await symlink(join(workspace, 'node_modules', entry), join(root, 'node_modules', entry));
  }
  const packages: Record<string, string> = {
    agent: 'packages/agent',
    client: 'packages/client',
    contracts: 'packages/contracts',
    providers: 'packages/providers',
    testing: 'packages/testing',
    cli: 'apps/cli',
    server: 'apps/server',
  };
  for (const [name, folder] of Object.entries(packages)) {
    await symlink(join(root, folder), join(root, 'node_modules', '@youyou', name));
    const nested = join(workspace, folder, 'node_modules');
    if (existsSync(nested)) await symlink(nested, join(root, folder, 'node_modules'));
  }
}

let root: string;
let home: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'youyou-workspace-bin-'));
  home = join(root, 'home');
  await mkdir(home);
  await freshCheckout(join(root, 'clone'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the workspace bin (apps/cli/bin/youyou.js) in an unbuilt checkout', () => {
  it('runs doctor from the sources when no package has a dist/ yet', () => {
    const clone = join(root, 'clone');
    expect(existsSync(join(clone, 'packages', 'contracts', 'dist'))).toBe(false);
    expect(existsSync(join(clone, 'apps', 'cli', 'dist'))).toBe(false);
    const run = (...argv: string[]) =>
      spawnSync(process.execPath, [join(clone, 'apps', 'cli', 'bin', 'youyou.js'), ...argv], {
        cwd: clone,
        encoding: 'utf8',
        env: { ...process.env, YOUYOU_HOME: home },
      });
    const doctor = run('doctor', '--json', '--cwd', clone);
    expect(doctor.stderr).not.toContain('ERR_MODULE_NOT_FOUND');
    expect(doctor.status).toBe(0);
    expect((JSON.parse(doctor.stdout) as DoctorReport).home).toBe(home);
    // The child's exit code is the command's own.
    expect(run('nonsense').status).toBe(2);
  });
});
