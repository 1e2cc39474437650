import { startFakeOpenAI, type FakeServer, type FakeServerOptions } from '@youyou/testing';
import { afterAll, beforeAll, describe } from 'vitest';
import { callServer, startChildServer, type ChildServer } from './child-server.ts';
import {
  createTestDatabase,
  DATABASE_KINDS,
  postgresServerAnswers,
  type DatabaseKind,
  type TestDatabase,
} from './databases.ts';
import { createTempDirectories, type TempDirectories } from './temp-directories.ts';

const realPostgres = await postgresServerAnswers();

/**
 * A kill -9 suite once per database kind. On PGlite (in the test process) a killed server's runs
 * are not seen to die: finding them needs a real PostgreSQL server, so there the suite is skipped,
 * with the reason in its name.
 *
 * @example
 * describeKillNine('kill -9 mid-run', (kind) => { const servers = crashServers({ kind }); … });
 */
export function describeKillNine(title: string, suite: (kind: DatabaseKind) => void): void {
  for (const kind of DATABASE_KINDS) {
    const skipped = kind === 'postgres' && !realPostgres;
    describe.skipIf(skipped)(
      `${title} on ${kind}${skipped ? ' (skipped: no PostgreSQL server answers; PGlite does not see the killed server go)' : ''}`,
      () => suite(kind),
    );
  }
}

/** Servers in child processes that share one home, data directory and database, to kill and start again. */
export interface CrashServers {
  readonly directories: TempDirectories;
  readonly fake: FakeServer;
  /** A new `youyou serve` child on the shared data; killed with SIGKILL after the suite if still alive. */
  start(): Promise<ChildServer>;
  /** Registers the fake model server as provider `fake` with model `fake-model`. */
  addFakeProvider(server: ChildServer): Promise<void>;
}

/**
 * Sets up, in the calling suite's `beforeAll`, the temp directories, the database (of `kind`;
 * none: the SQLite file in the data directory) and a fake OpenAI server, and in its `afterAll`
 * kills every child still running and removes all of it.
 *
 * @example
 * const servers = crashServers({ kind, fake: { fallback: 'echo' } });
 * const first = await servers.start();
 * await first.kill('SIGKILL');
 */
export function crashServers(options: { kind?: DatabaseKind; fake?: FakeServerOptions } = {}): CrashServers {
  let database: TestDatabase | undefined;
  let directories: TempDirectories | undefined;
  let fake: FakeServer | undefined;
  const children: ChildServer[] = [];

  beforeAll(async () => {
    if (options.kind !== undefined) database = await createTestDatabase(options.kind);
    directories = await createTempDirectories();
    fake = await startFakeOpenAI(options.fake ?? { fallback: 'echo' });
  });

  afterAll(async () => {
    for (const child of children) await child.kill('SIGKILL');
    await fake?.close();
    await directories?.remove();
    await database?.drop();
  });

  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is set up in beforeAll: use it inside a test`);
    return value;
  };

  return {
    get directories() {
      return ready(directories, 'the temp directories');
    },
    get fake() {
      return ready(fake, 'the fake model server');
    },
    async start() {
      const shared = ready(directories, 'the temp directories');
      const child = await startChildServer({
        home: shared.home,
        dataDirectory: shared.dataDirectory,
        workspaceRoot: shared.root,
        ...(database?.url === undefined ? {} : { databaseUrl: database.url }),
      });
      children.push(child);
      return child;
    },
    async addFakeProvider(server) {
      await callServer(server, 'POST', '/api/providers', {
        name: 'fake',
        kind: 'openai-compatible',
        base_url: ready(fake, 'the fake model server').url,
        models: [{ id: 'fake-model' }],
      });
    },
  };
}
