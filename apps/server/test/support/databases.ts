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
 * A fresh PostgreSQL schema (search_path set in the URL), or nothing for SQLite.
 *
 * @example
 * const database = await createTestDatabase('postgres');
 * await startServer({ databaseUrl: database.url });
 * await database.drop();
 */
export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'sqlite') return { kind, url: undefined, drop: async () => {} };
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
