import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DialectName } from './migrations/index.ts';
import { NodeSqliteDatabase } from './node-sqlite/index.ts';
import type { Schema } from './schema.ts';

/** An open workbench database: Kysely for queries, plus what only one engine has. */
export interface WorkbenchDatabase {
  readonly db: Kysely<Schema>;
  readonly dialect: DialectName;
  /** PostgreSQL: the connection string, for the listener's own connection. */
  readonly connectionString?: string;
  /** SQLite: the file. */
  readonly file?: string;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** `postgres://…` or `postgresql://…`; otherwise `sqliteFile` is used. */
  databaseUrl?: string;
  sqliteFile?: string;
  /** PostgreSQL pool size; default 10. */
  poolSize?: number;
}

/** WAL for concurrent readers and crash safety; NORMAL sync is durable against a killed process. */
const SQLITE_PRAGMAS = [
  'pragma journal_mode = wal',
  'pragma synchronous = normal',
  'pragma foreign_keys = on',
  'pragma busy_timeout = 5000',
  'pragma temp_store = memory',
  'pragma cache_size = -8000',
];

const INT8_OID = 20;

/** BIGINT columns hold milliseconds and sequence numbers, all below 2^53: read them as numbers. */
const pgTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format ?? 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

/** True for a `postgres://` or `postgresql://` URL. */
export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//i.test(url);
}

/**
 * `YOUYOU_DATABASE_POOL_SIZE`: how many connections the PostgreSQL pool opens (default 10). PGlite
 * behind its socket needs 1: it runs every connection on one backend, and two connections'
 * extended-protocol messages interleaved there lose their unnamed prepared statements.
 */
function poolSizeFromEnvironment(): number {
  const size = Number(process.env['YOUYOU_DATABASE_POOL_SIZE'] ?? '');
  return Number.isInteger(size) && size >= 1 ? size : 10;
}

/** A pg pool with the workbench's type parsing. */
export function createPostgresPool(connectionString: string, max = 10): pg.Pool {
  return new pg.Pool({ connectionString, max, types: pgTypes });
}

/** A pg client (for LISTEN and the instance lock) with the workbench's type parsing. */
export function createPostgresClient(connectionString: string): pg.Client {
  return new pg.Client({ connectionString, types: pgTypes });
}

/**
 * Opens SQLite (a file, created with its folder) or PostgreSQL (a URL). Migrations are separate:
 * `migrateToLatest`.
 *
 * @example
 * const database = openDatabase({ sqliteFile: '/tmp/youyou.db' });
 * await migrateToLatest(database);
 */
export function openDatabase(options: OpenDatabaseOptions): WorkbenchDatabase {
  if (isPostgresUrl(options.databaseUrl)) {
    const pool = createPostgresPool(options.databaseUrl, options.poolSize ?? poolSizeFromEnvironment());
    // An idle client's error (the server restarting) must not crash the process.
    pool.on('error', () => {});
    const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      dialect: 'postgres',
      connectionString: options.databaseUrl,
      close: () => db.destroy(),
    };
  }
  const file = options.sqliteFile;
  if (file === undefined) throw new Error('openDatabase needs a PostgreSQL URL or a SQLite file.');
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const raw = new DatabaseSync(file);
  for (const pragma of SQLITE_PRAGMAS) raw.exec(pragma);
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: new NodeSqliteDatabase(raw) }) });
  return { db, dialect: 'sqlite', file, close: () => db.destroy() };
}

/** True when `error` is a unique-constraint violation on either engine. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, errcode, message } = error as { code?: unknown; errcode?: unknown; message?: unknown };
  if (code === '23505') return true;
  // SQLITE_CONSTRAINT_UNIQUE (2067) and SQLITE_CONSTRAINT_PRIMARYKEY (1555).
  if (errcode === 2067 || errcode === 1555) return true;
  return typeof message === 'string' && message.startsWith('UNIQUE constraint failed');
}
