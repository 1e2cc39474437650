import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  migrateCommand,
  serveCommand,
  serveOptionsOf,
  versionCommand,
  type CommandIo,
} from '../src/cli/index.ts';
import { knownMigrations, migrateDown, migrateToLatest, openDatabase } from '../src/database/index.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { createTempDirectories, type TempDirectories } from './support/temp-directories.ts';

function recordingIo(
  cwd: string,
  environment: NodeJS.ProcessEnv = {},
): CommandIo & { out: string; err: string } {
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

describe.each(DATABASE_KINDS)('migrations on %s', (kind) => {
  let database: TestDatabase;
  let directories: TempDirectories;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    directories = await createTempDirectories();
  });

  afterAll(async () => {
    await directories?.remove();
    await database?.drop();
  });

  it('apply on a fresh database, do nothing the second time, roll back, and apply again', async () => {
    const opened = openDatabase(
      database.url === undefined
        ? { sqliteFile: join(directories.root, 'm.db') }
        : { databaseUrl: database.url },
    );
    try {
      expect(await migrateToLatest(opened)).toEqual({
        applied: knownMigrations(),
        current: knownMigrations(),
      });
      expect(await migrateToLatest(opened)).toEqual({ applied: [], current: knownMigrations() });
      const rows = await opened.db.selectFrom('conversations').selectAll().execute();
      expect(rows).toEqual([]);
      // Each migration rolls back, newest first.
      for (let index = knownMigrations().length - 1; index >= 0; index--) {
        expect(await migrateDown(opened)).toEqual({
          applied: [knownMigrations()[index]],
          current: knownMigrations().slice(0, index),
        });
      }
      // Only this test's schema counts: another schema on the same server (or `public`, which the
      // search path falls back to for extensions) may hold a `conversations` table of its own.
      const left =
        kind === 'sqlite'
          ? await sql<{ name: string }>`select name from sqlite_master
              where type = 'table' and name = 'conversations'`.execute(opened.db)
          : await sql<{ name: string }>`select table_name as name from information_schema.tables
              where table_schema = current_schema() and table_name = 'conversations'`.execute(opened.db);
      expect(left.rows).toEqual([]);
      expect((await migrateToLatest(opened)).current).toEqual(knownMigrations());
    } finally {
      await opened.close();
    }
  });

  it('`youyou migrate` applies, then reports nothing to do; --down rolls back', async () => {
    const dataDirectory = join(directories.root, `cli-${kind}`);
    const target =
      database.url === undefined ? ['--data-dir', dataDirectory] : ['--database-url', database.url];
    if (database.url !== undefined) {
      const opened = openDatabase({ databaseUrl: database.url });
      while ((await migrateDown(opened)).current.length > 0);
      await opened.close();
    }
    const first = recordingIo(directories.root);
    expect(await migrateCommand(target, first)).toBe(0);
    expect(first.out).toContain(`applied: ${knownMigrations().join(', ')}`);
    const again = recordingIo(directories.root);
    expect(await migrateCommand(target, again)).toBe(0);
    expect(again.out).toContain('Nothing to do');
    const down = recordingIo(directories.root);
    expect(await migrateCommand([...target, '--down'], down)).toBe(0);
    expect(down.out).toContain(`rolled back: ${knownMigrations().at(-1) ?? ''}`);
  });
});

describe('the serve and version commands', () => {
  let directories: TempDirectories;

  beforeAll(async () => {
    directories = await createTempDirectories();
  });

  afterAll(async () => {
    await directories?.remove();
  });

  it('serve parses its flags, relative to the working directory', () => {
    const io = recordingIo(directories.root, { YOUYOU_HOME: 'home' });
    const { options, open } = serveOptionsOf(
      [
        '--host',
        '0.0.0.0',
        '--port',
        '0',
        '--data-dir',
        'data',
        '--workspace-root',
        'work',
        '--allowed-host',
        'box.lan',
        '--open',
      ],
      io,
    );
    expect(options).toMatchObject({
      host: '0.0.0.0',
      port: 0,
      dataDirectory: join(directories.root, 'data'),
      workspaceRoots: [join(directories.root, 'work')],
      allowedHosts: ['box.lan'],
      home: join(directories.root, 'home'),
    });
    expect(open).toBe(true);
  });

  it('serve refuses a bad port, an unknown flag and a database URL that is not PostgreSQL (exit 2)', async () => {
    for (const argv of [['--port', 'eighty'], ['--colour'], ['--database-url', 'mysql://x']]) {
      const io = recordingIo(directories.root);
      expect(await serveCommand(argv, io)).toBe(2);
      expect(io.err).toMatch(/^youyou: /);
    }
  });

  it('serve prints one login URL, warns about a non-loopback address, and stops cleanly', async () => {
    const io = recordingIo(directories.root, { YOUYOU_HOME: join(directories.root, 'home') });
    const controller = new AbortController();
    const exit = serveCommand(
      ['--port', '0', '--host', '0.0.0.0', '--workspace-root', directories.root],
      io,
      {
        signal: controller.signal,
        onStarted: (server) => {
          expect(server.loginUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{40,}$/);
          controller.abort();
        },
      },
    );
    expect(await exit).toBe(0);
    expect(io.out.match(/\?token=/g)).toHaveLength(1);
    expect(io.err).toContain('non-loopback');
    expect(io.err).toContain('"msg":"stopped"');
  });

  it('version prints the server version', () => {
    const io = recordingIo(directories.root);
    expect(versionCommand(io)).toBe(0);
    expect(io.out).toMatch(/^youyou-server \d+\.\d+\.\d+ \(node v\d+/);
  });
});
