import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Where the PostgreSQL tests run; `off` skips them (CI always runs them: .ci/run starts PostgreSQL). */
export const TEST_DATABASE_URL =
  process.env['YOUYOU_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

export type DatabaseKind = 'sqlite' | 'postgres';

/** The engines every storage and HTTP test runs against. */
export const DATABASE_KINDS: readonly DatabaseKind[] =
  TEST_DATABASE_URL === 'off' ? ['sqlite'] : ['sqlite', 'postgres'];

/** A fresh, empty database to run one test file against. */
export interface TestDatabase {
  kind: DatabaseKind;
  /** PostgreSQL: a URL whose search_path is a schema of its own. SQLite: undefined (the data directory holds it). */
  url: string | undefined;
  drop(): Promise<void>;
}

/**
 * Whether a PostgreSQL server answers at TEST_DATABASE_URL (asked once per test process). When
 * none does (a bare machine: Node and nothing else), the PostgreSQL tests run against PGlite —
 * PostgreSQL compiled to WebAssembly, in this process, behind a real wire-protocol socket — so the
 * PostgreSQL dialect is always tested. Tests that need a second server process sharing one real
 * PostgreSQL (LISTEN/NOTIFY across processes) skip themselves on PGlite and say why.
 */
export function postgresServerAnswers(): Promise<boolean> {
  answers ??= (async () => {
    if (TEST_DATABASE_URL === 'off') return false;
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 3_000 });
    try {
      await client.connect();
      await client.end();
      return true;
    } catch {
      await client.end().catch(() => {});
      return false;
    }
  })();
  return answers;
}
let answers: Promise<boolean> | undefined;
let warned = false;

/** Why a test that needs a real PostgreSQL server is skipped on PGlite. */
export const PGLITE_SKIP_REASON = `no PostgreSQL server answers at ${TEST_DATABASE_URL}; PGlite runs the PostgreSQL tests in one process, and a test that needs two server processes on one real PostgreSQL (LISTEN/NOTIFY across processes) cannot run on it. Start PostgreSQL (or set YOUYOU_TEST_DATABASE_URL) to run it.`;

/** An in-memory PGlite (with pg_trgm) behind a loopback socket that `pg` connects to. */
async function createPgliteDatabase(): Promise<TestDatabase> {
  const [{ PGlite }, { pg_trgm }, { PGLiteSocketServer }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('@electric-sql/pglite-socket'),
  ]);
  if (!warned) {
    warned = true;
    process.stderr.write(`PostgreSQL tests: on PGlite (${PGLITE_SKIP_REASON.split(';')[0]})\n`);
  }
  const db = await PGlite.create({ extensions: { pg_trgm } });
  // PGlite runs every connection on its one backend, where two connections' extended-protocol
  // messages interleave and lose their unnamed prepared statements: the servers under test use one
  // pool connection (the LISTEN and lock clients are their own connections).
  process.env['YOUYOU_DATABASE_POOL_SIZE'] = '1';
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 16 });
  await server.start();
  const address = server.getServerConn();
  return {
    kind: 'postgres',
    url: `postgres://postgres@${address}/postgres`,
    drop: async () => {
      await server.stop();
      await db.close();
    },
  };
}

/**
 * A fresh PostgreSQL schema (search_path set in the URL), or nothing for SQLite.
 *
 * @example
 * const database = await createTestDatabase('postgres');
 * await startServer({ databaseUrl: database.url });
 * await database.drop();
 */
export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'sqlite') return { kind, url: undefined, drop: async () => {} };
  if (!(await postgresServerAnswers())) return createPgliteDatabase();
  const schema = `yy_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${TEST_DATABASE_URL}: start it (pg_ctlcluster … main start), point YOUYOU_TEST_DATABASE_URL at one, or set it to "off" to skip these tests.`,
      { cause: error },
    );
  }
  try {
    await client.query(`create schema ${schema}`);
    // Shared by every schema; created once so parallel migrations do not race on it.
    await client.query('create extension if not exists pg_trgm').catch(() => {});
  } finally {
    await client.end();
  }
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema},public`);
  return {
    kind,
    url: url.toString(),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await dropper.connect();
      try {
        await dropper.query(`drop schema if exists ${schema} cascade`);
      } finally {
        await dropper.end();
      }
    },
  };
}
