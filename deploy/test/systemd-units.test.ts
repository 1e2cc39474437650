// The systemd units as install.sh writes them, checked by systemd itself (`systemd-analyze
// verify`: every directive known, every value parsed, ExecStart's program present). Starting them
// needs a running systemd, which a test machine does not have; executable.test.ts runs the same
// binary through the scripts' no-systemd path.
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const UNITS = resolve(here, '../systemd');
const INSTALL_SCRIPT = resolve(here, '../scripts/install.sh');

const analyzer = await run('systemd-analyze', ['--version']).then(
  () => true,
  () => false,
);

describe.skipIf(!analyzer)('the systemd units (systemd-analyze verify)', () => {
  let root: string;
  let values: Record<string, string>;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'youyou-units-'));
    const prefix = join(root, 'opt', 'youyou');
    await mkdir(join(prefix, 'current'), { recursive: true });
    // verify checks that ExecStart names an executable file; the unit is never started.
    await writeFile(join(prefix, 'current', 'youyou'), '#!/bin/sh\nexit 0\n');
    await chmod(join(prefix, 'current', 'youyou'), 0o755);
    await mkdir(join(root, 'runtime'), { mode: 0o700 });
    values = {
      PREFIX: prefix,
      DATA_DIR: join(root, 'data'),
      PORT: '4280',
      SERVICE_USER: 'root',
    };
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function rendered(template: string): Promise<string> {
    const text = await readFile(join(UNITS, template), 'utf8');
    const file = join(root, template);
    await writeFile(
      file,
      text.replace(/@([A-Z_]+)@/g, (_, name: string) => values[name] ?? `@${name}@`),
    );
    return file;
  }

  it('install.sh fills in every placeholder the units have', async () => {
    const script = await readFile(INSTALL_SCRIPT, 'utf8');
    for (const template of ['youyou.service', 'youyou-user.service']) {
      const placeholders = (await readFile(join(UNITS, template), 'utf8')).match(/@[A-Z_]+@/g) ?? [];
      for (const placeholder of new Set(placeholders)) expect(script).toContain(`s#${placeholder}#`);
    }
  });

  it('the system unit verifies without a warning', async () => {
    const unit = await rendered('youyou.service');
    const { stderr } = await run('systemd-analyze', ['verify', unit]);
    expect(stderr).toBe('');
  });

  it('the user unit verifies without a warning', async () => {
    const unit = await rendered('youyou-user.service');
    const { stderr } = await run('systemd-analyze', ['--user', 'verify', unit], {
      env: { ...process.env, XDG_RUNTIME_DIR: join(root, 'runtime') },
    });
    expect(stderr).toBe('');
  });

  it('a broken directive is reported (the check can fail)', async () => {
    const unit = await rendered('youyou.service');
    await writeFile(unit, (await readFile(unit, 'utf8')).replace('Restart=on-failure', 'Restart=sometimes'));
    const { stderr } = await run('systemd-analyze', ['verify', unit]);
    expect(stderr).toContain('restart specifier');
  });
});
