// The single executable as a user gets it: built, copied alone into an empty folder, run with a
// fresh HOME; then installed, upgraded over a data directory an older schema made, and a failed
// upgrade rolled back — through deploy/scripts, with the process managed by pid file (no systemd
// in a test).
import { createHash } from 'node:crypto';
import {
  cp,
  mkdir,
  mkdtemp,
  readFile,
  readlink,
  realpath,
  rm,
  writeFile,
  chmod,
  copyFile,
  readdir,
} from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeOpenAI, type FakeServer } from '@youyou/testing';
import { documentFixtures } from '@youyou/testing/documents';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openBrowser } from '../../e2e/support/browser.ts';
import { buildExecutable } from '../sea/build.ts';
import { builtFrom, environment, run } from './run-executable.ts';
import { api, download, serveExecutable, settledRun } from './workbench-client.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

const here = dirname(fileURLToPath(import.meta.url));
const SCRIPTS = resolve(here, '../scripts');
const FIXTURE = join(here, 'fixtures', 'data-0002');
const fixture = JSON.parse(await readFile(join(here, 'fixtures', 'data-0002.json'), 'utf8')) as {
  conversations: string[];
  upload: { id: string; sha256: string };
  artifact: { id: string; sha256: string };
};

let root: string;
let executable: string;
let fake: FakeServer;

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise<void>((done) => server.close(() => done()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'youyou-executable-')));
  const built = await buildExecutable(join(root, 'build'));
  // Alone in an empty folder: nothing beside it but what it brings.
  const alone = join(root, 'alone');
  await mkdir(alone);
  executable = join(alone, 'youyou');
  await copyFile(built.executable, executable);
  await copyFile(built.checksumFile, join(root, 'build', 'checksum'));
  fake = await startFakeOpenAI({ fallback: 'echo' });
});

afterAll(async () => {
  await fake?.close();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

describe('the single executable, copied alone into an empty folder with a fresh HOME', () => {
  it('matches the SHA-256 file built beside it', async () => {
    const [expected, name] = (await readFile(join(root, 'build', 'checksum'), 'utf8')).trim().split(/\s+/);
    expect(name).toMatch(/^youyou-linux-/);
    expect(sha256(await readFile(executable))).toBe(expected);
  });

  it('reports its version manifest with version --json', async () => {
    const home = join(root, 'home-version');
    await mkdir(home);
    const result = await run(executable, ['version', '--json'], dirname(executable), environment(home));
    expect(result.code, result.stderr).toBe(0);
    const manifest = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      single_executable: true,
    });
    expect(Date.parse(String(manifest['build_date']))).not.toBeNaN();
    expect(manifest['schema_version']).toMatch(/^\d{4}-/);
    expect(manifest['arch']).toBe(process.arch);
  });

  it('names in its version manifest the commit it was built from and the hash of the UI it embeds', async () => {
    const home = join(root, 'home-manifest');
    await mkdir(home);
    const result = await run(executable, ['version', '--json'], dirname(executable), environment(home));
    expect(result.code, result.stderr).toBe(0);
    const manifest = JSON.parse(result.stdout) as Record<string, unknown>;
    const tree = await builtFrom();
    expect(manifest['commit']).toBe(tree.commit);
    expect(manifest['ui_hash']).toBe(tree.uiHash);
  });

  it('compiles its program with the code cache the build made by running its start, and V8 accepts it', async () => {
    const home = join(root, 'home-code-cache');
    await mkdir(home);
    const result = await run(executable, ['version'], dirname(executable), {
      ...environment(home),
      YOUYOU_REPORT_CODE_CACHE: '1',
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('youyou: code cache accepted');
    expect(result.stdout).toMatch(/^youyou \d+\.\d+\.\d+/);
  });

  it('runs doctor, components and migrate in an empty folder', async () => {
    const home = join(root, 'home-commands');
    const cwd = join(root, 'empty-commands');
    await mkdir(home);
    await mkdir(cwd);
    const doctor = await run(executable, ['doctor', '--json'], cwd, environment(home));
    expect(doctor.code, doctor.stderr).toBe(0);
    expect((JSON.parse(doctor.stdout) as { home: string }).home).toBe(join(home, '.youyou'));
    const components = await run(executable, ['components', 'list', '--json'], cwd, environment(home));
    expect(components.code, components.stderr).toBe(0);
    const migrate = await run(
      executable,
      ['migrate', '--data-dir', join(cwd, 'data')],
      cwd,
      environment(home),
    );
    expect(migrate.code, migrate.stderr).toBe(0);
    expect(migrate.stdout).toMatch(/applied: 0001-initial/);
  });

  it('reads an uploaded PDF and Word file with pdf.js and mammoth, which it carries outside its main script', async () => {
    const home = join(root, 'home-documents');
    const cwd = join(root, 'empty-documents');
    await mkdir(home);
    await mkdir(cwd);
    const fixtures = await documentFixtures();
    const served = await serveExecutable(executable, ['--workspace-root', cwd], {
      cwd,
      env: environment(home),
    });
    try {
      for (const [name, sentence] of [
        ['summary-en.pdf', 'The pipeline reads every page in order.'],
        ['report-en.docx', 'Revenue grew by twelve percent in the third quarter.'],
      ] as const) {
        const fixture = fixtures.get(name);
        if (fixture === undefined) throw new Error(`no fixture ${name}`);
        const form = new FormData();
        form.set('file', new Blob([new Uint8Array(fixture.bytes)], { type: fixture.media_type }), name);
        const response = await fetch(`${served.url}/api/uploads`, {
          method: 'POST',
          headers: { authorization: `Bearer ${served.token}` },
          body: form,
        });
        expect(response.status, await response.clone().text()).toBe(201);
        const upload = (await response.json()) as { id: string };
        let document = { id: '', status: 'queued', failure: null as unknown };
        for (let attempt = 0; attempt < 400 && ['queued', 'parsing'].includes(document.status); attempt++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          document = await api(served.url, served.token, 'GET', `/api/uploads/${upload.id}/document`);
        }
        expect(document, name).toMatchObject({
          status: expect.stringMatching(/^(parsed|indexed)$/),
          failure: null,
        });
        const blocks = await api(served.url, served.token, 'GET', `/api/documents/${document.id}/blocks`);
        expect(JSON.stringify(blocks)).toContain(sentence);
      }
    } finally {
      await served.stop();
    }
  });

  it('serves a conversation against the fake model over HTTP and its embedded UI in a browser', async () => {
    const home = join(root, 'home-serve');
    const cwd = join(root, 'empty-serve');
    await mkdir(home);
    await mkdir(cwd);
    const served = await serveExecutable(executable, ['--workspace-root', cwd], {
      cwd,
      env: environment(home),
    });
    try {
      await api(served.url, served.token, 'POST', '/api/providers', {
        name: 'fake',
        kind: 'openai-compatible',
        base_url: fake.url,
        api_key: 'sk-fake-key-for-tests-0001',
        models: [{ id: 'fake-model', context_window: 100_000 }],
      });
      const conversation = await api<{ id: string }>(
        served.url,
        served.token,
        'POST',
        '/api/conversations',
        {},
      );
      const sent = await api<{ run: { id: string } }>(
        served.url,
        served.token,
        'POST',
        `/api/conversations/${conversation.id}/messages`,
        { text: 'Hello from the single executable' },
      );
      expect((await settledRun(served.url, served.token, sent.run.id)).status).toBe('completed');
      const view = JSON.stringify(
        await api(served.url, served.token, 'GET', `/api/conversations/${conversation.id}`),
      );
      expect(view).toContain('Hello from the single executable');

      const browser = await openBrowser();
      try {
        await browser.page.goto(served.loginUrl);
        await browser.page.getByText('Hello from the single executable').first().waitFor({ timeout: 30_000 });
        expect(await browser.page.title()).toBe('YouYou');
      } finally {
        await browser.close();
      }
    } finally {
      await served.stop();
    }
  });
});

describe('install, upgrade and rollback (deploy/scripts) over a data directory schema 0002 made', () => {
  /** An installation in a temp prefix whose data directory is a copy of the fixture. */
  async function installFixture(name: string) {
    const home = join(root, `home-${name}`);
    const prefix = join(root, `prefix-${name}`);
    const dataDirectory = join(root, `data-${name}`);
    await mkdir(home);
    await cp(FIXTURE, dataDirectory, { recursive: true });
    const port = await freePort();
    const env = environment(home);
    const install = await run(
      'bash',
      [
        join(SCRIPTS, 'install.sh'),
        executable,
        '--no-systemd',
        '--no-start',
        '--prefix',
        prefix,
        '--data-dir',
        dataDirectory,
        '--port',
        String(port),
      ],
      root,
      env,
    );
    expect(install.code, install.stderr).toBe(0);
    return { home, prefix, dataDirectory, port, env, base: `http://127.0.0.1:${port}` };
  }

  async function stop(prefix: string): Promise<void> {
    const pid = Number(await readFile(join(prefix, 'youyou.pid'), 'utf8').catch(() => '0'));
    if (pid > 0) {
      process.kill(pid, 'SIGTERM');
      for (let tries = 0; tries < 100; tries++) {
        try {
          process.kill(pid, 0);
          await new Promise((done) => setTimeout(done, 100));
        } catch {
          return;
        }
      }
    }
  }

  /** The fixture's conversations, upload and artifact, seen through the API and on disk. */
  async function expectFixtureData(base: string, dataDirectory: string): Promise<void> {
    const token = (await readFile(join(dataDirectory, 'token'), 'utf8')).trim();
    const listing = await api<{ conversations: { id: string; title: string }[] }>(
      base,
      token,
      'GET',
      '/api/conversations',
    );
    expect(listing.conversations.map((conversation) => conversation.id).sort()).toEqual(
      [...fixture.conversations].sort(),
    );
    expect(listing.conversations.map((conversation) => conversation.title).sort()).toEqual([
      'Fixture: tangerine',
      'Fixture: upload',
    ]);
    const first = JSON.stringify(
      await api(base, token, 'GET', `/api/conversations/${fixture.conversations[0] ?? ''}`),
    );
    expect(first).toContain('Remember the word tangerine.');
    expect(first).toContain('And now a second turn.');
    expect(sha256(await download(base, token, `/api/uploads/${fixture.upload.id}/content`))).toBe(
      fixture.upload.sha256,
    );
    const artifact = await api<{ artifact: { id: string } }>(
      base,
      token,
      'GET',
      `/api/artifacts/${fixture.artifact.id}`,
    );
    expect(artifact.artifact.id).toBe(fixture.artifact.id);
    const objects = join(
      dataDirectory,
      'objects',
      'artifacts',
      fixture.artifact.id.slice(0, 2),
      fixture.artifact.id,
    );
    expect(sha256(await readFile(objects))).toBe(fixture.artifact.sha256);
  }

  it('upgrades: backs up, swaps the binary, migrates the old schema, starts healthy, and keeps every record', async () => {
    const installation = await installFixture('upgrade');
    try {
      const upgrade = await run(
        'bash',
        [join(SCRIPTS, 'upgrade.sh'), executable, '--prefix', installation.prefix],
        root,
        installation.env,
      );
      expect(upgrade.code, upgrade.stderr).toBe(0);
      expect(upgrade.stderr).toMatch(/upgraded to/);
      expect(upgrade.stderr).toMatch(/applied: .*\b0020-/);
      expect(await readlink(join(installation.prefix, 'current'))).not.toBe(
        await readlink(join(installation.prefix, 'previous')),
      );
      const backups = await readdir(join(installation.prefix, 'backups'));
      expect(backups.filter((file) => file.startsWith('pre-upgrade-'))).toHaveLength(1);
      await expectFixtureData(installation.base, installation.dataDirectory);
    } finally {
      await stop(installation.prefix);
    }
  });

  it('rolls a failed upgrade back to the previous binary and the pre-upgrade backup, data intact', async () => {
    const installation = await installFixture('rollback');
    // A release that migrates the database and then cannot start.
    const broken = join(root, 'broken-youyou');
    await writeFile(
      broken,
      `#!/bin/sh\nif [ "$1" = serve ]; then echo "this build cannot start" >&2; exit 1; fi\nexec "${executable}" "$@"\n`,
    );
    await chmod(broken, 0o755);
    const before = await readlink(join(installation.prefix, 'current'));
    try {
      const upgrade = await run(
        'bash',
        [join(SCRIPTS, 'upgrade.sh'), broken, '--prefix', installation.prefix],
        root,
        installation.env,
      );
      expect(upgrade.code).toBe(1);
      expect(upgrade.stderr).toMatch(/applied: .*\b0020-/);
      expect(upgrade.stderr).toMatch(/rolling back/);
      expect(upgrade.stderr).toMatch(/restored \d+ file\(s\)/);
      expect(upgrade.stderr).toMatch(/rolled back; running/);
      expect(await readlink(join(installation.prefix, 'current'))).toBe(before);
      await expectFixtureData(installation.base, installation.dataDirectory);
    } finally {
      await stop(installation.prefix);
    }
  });
});
