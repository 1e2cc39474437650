import { startFakeOpenAI, type FakeServer, type FakeServerOptions } from '@youyou/testing';
import { afterAll, beforeAll, describe } from 'vitest';
import type { WorkbenchEvent } from '../../src/events/index.ts';
import { callServer, startChildServer, type ChildServer } from './child-server.ts';
import {
  createTestDatabase,
  DATABASE_KINDS,
  postgresServerAnswers,
  type DatabaseKind,
  type TestDatabase,
} from './databases.ts';
import { readEvents } from './sse.ts';
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
  /**
   * A client reads a conversation's events on `server` from the start until `until`; then the
   * server is killed with SIGKILL and the next one started on the same data: what the client had
   * received before the crash, and the server after it.
   */
  crash(
    server: ChildServer,
    conversationId: string,
    until: (event: WorkbenchEvent) => boolean,
  ): Promise<{ acknowledged: WorkbenchEvent[]; restarted: ChildServer }>;
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

  const start = async (): Promise<ChildServer> => {
    const shared = ready(directories, 'the temp directories');
    const child = await startChildServer({
      home: shared.home,
      dataDirectory: shared.dataDirectory,
      workspaceRoot: shared.root,
      ...(database?.url === undefined ? {} : { databaseUrl: database.url }),
    });
    children.push(child);
    return child;
  };

  return {
    get directories() {
      return ready(directories, 'the temp directories');
    },
    get fake() {
      return ready(fake, 'the fake model server');
    },
    start,
    async addFakeProvider(server) {
      await callServer(server, 'POST', '/api/providers', {
        name: 'fake',
        kind: 'openai-compatible',
        base_url: ready(fake, 'the fake model server').url,
        models: [{ id: 'fake-model' }],
      });
    },
    async crash(server, conversationId, until) {
      const acknowledged = await readEvents({
        url: server.url,
        token: server.token,
        conversationId,
        after: 0,
        until,
      });
      await server.kill('SIGKILL');
      return { acknowledged, restarted: await start() };
    },
  };
}
