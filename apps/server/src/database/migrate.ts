import { sql, type DatabaseIntrospector, type Kysely, type SchemaMetadata, type TableMetadata } from 'kysely';
import { Migrator, type Migration, type MigrationResultSet } from 'kysely/migration';
import { MIGRATIONS } from './migrations/index.ts';
import type { WorkbenchDatabase } from './open-database.ts';

const MIGRATION_TABLE = 'workbench_migrations';
const MIGRATION_LOCK_TABLE = 'workbench_migrations_lock';

/**
 * The database handle the migrator sees on PostgreSQL: the same connection pool, with an
 * introspector that lists only `schema`'s tables. Kysely's own introspector reads every schema of
 * the database and resolves each table by name (`pg_get_serial_sequence`), so a schema another
 * server drops at that moment (tests, or several instances in one database) failed this server's
 * migration with "relation … does not exist".
 */
function scopedToSchema<DB>(db: Kysely<DB>, schema: string): Kysely<DB> {
  const introspection: DatabaseIntrospector = {
    getSchemas: async (): Promise<SchemaMetadata[]> => {
      const found = await sql<{
        name: string;
      }>`select nspname as name from pg_catalog.pg_namespace where nspname = ${schema}`.execute(db);
      return found.rows;
    },
    getTables: async (): Promise<TableMetadata[]> => {
      const found = await sql<{ name: string }>`
        select table_name as name from information_schema.tables where table_schema = ${schema}`.execute(db);
      return found.rows.map((row) => ({
        name: row.name,
        schema,
        isView: false,
        isForeign: false,
        columns: [],
      }));
    },
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspection;
      const value: unknown = Reflect.get(target, property, target);
      // Kysely's methods read private fields, which exist on the target, not on the proxy.
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The PostgreSQL schema the migration tables live in; undefined on SQLite. */
async function schemaOf(database: WorkbenchDatabase): Promise<string | undefined> {
  // Without a schema, Kysely looks for its table in every schema: a server on one schema would
  // see another's migration table and skip creating its own.
  return database.dialect === 'postgres'
    ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db)).rows[0]?.schema
    : undefined;
}

async function migrator(database: WorkbenchDatabase, schema?: string): Promise<Migrator> {
  const migrations: Record<string, Migration> = {};
  for (const migration of MIGRATIONS) {
    migrations[migration.name] = {
      up: (db) => migration.up(db, database.dialect),
      down: (db) => migration.down(db, database.dialect),
    };
  }
  return new Migrator({
    db: schema === undefined ? database.db : scopedToSchema(database.db, schema),
    provider: { getMigrations: async () => migrations },
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
    // Each capability numbers its migrations in its own range (0020–, 0030– …), and they land in
    // any order: a database at 0040 still takes a 0020 that arrives later.
    allowUnorderedMigrations: true,
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
}

/** What a migration run did. */
export interface MigrationReport {
  /** Migrations applied (or rolled back) by this call, in order. */
  applied: string[];
  /** Every migration now applied. */
  current: string[];
}

function report(result: MigrationResultSet, current: string[]): MigrationReport {
  if (result.error !== undefined) {
    const failed = result.results?.find((entry) => entry.status === 'Error');
    const message = result.error instanceof Error ? result.error.message : String(result.error);
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${message}`, { cause: result.error });
  }
  return {
    applied: (result.results ?? [])
      .filter((entry) => entry.status === 'Success')
      .map((entry) => entry.migrationName),
    current,
  };
}

async function appliedNames(migrations: Migrator): Promise<string[]> {
  const all = await migrations.getMigrations();
  return all.filter((migration) => migration.executedAt !== undefined).map((migration) => migration.name);
}

/**
 * Applies every pending migration, in one transaction on PostgreSQL. Safe to run from several
 * processes at once: Kysely's migration lock serialises them.
 *
 * @example
 * const { applied } = await migrateToLatest(database); // ['0001-initial'] on a fresh database
 */
export async function migrateToLatest(database: WorkbenchDatabase): Promise<MigrationReport> {
  const schema = await schemaOf(database);
  const current = await upToDate(database, schema);
  if (current !== undefined) return { applied: [], current };
  const migrations = await migrator(database, schema);
  const result = await migrations.migrateToLatest();
  return report(result, await appliedNames(migrations));
}

/**
 * Every migration's name, oldest first, when the database has applied exactly the known ones;
 * undefined otherwise. A server starting on an up-to-date database then reads one table instead
 * of running Kysely's migrator, which introspects the whole schema several times (on SQLite one
 * query per table): about a tenth of the executable's start
 * (docs/decisions/0025-executable-cold-start.md). Anything else goes through the migrator as
 * before: no migration table yet, a migration not applied, or one this version does not know (a
 * newer database, which the migrator refuses).
 */
async function upToDate(
  database: WorkbenchDatabase,
  schema: string | undefined,
): Promise<string[] | undefined> {
  let rows: { name: string }[];
  try {
    const table = sql.table(schema === undefined ? MIGRATION_TABLE : `${schema}.${MIGRATION_TABLE}`);
    rows = (await sql<{ name: string }>`select name from ${table}`.execute(database.db)).rows;
  } catch {
    return undefined; // No migration table yet: a new database.
  }
  const known = MIGRATIONS.map((migration) => migration.name).sort();
  const applied = new Set(rows.map((row) => row.name));
  if (applied.size !== known.length || !known.every((name) => applied.has(name))) return undefined;
  return known;
}

/**
 * Rolls back the newest applied migration (spec §5: every migration has a way back).
 *
 * @example
 * await migrateDown(database);
 */
export async function migrateDown(database: WorkbenchDatabase): Promise<MigrationReport> {
  const migrations = await migrator(database, await schemaOf(database));
  const result = await migrations.migrateDown();
  return report(result, await appliedNames(migrations));
}

/**
 * The names of every known migration, oldest first.
 *
 * @example
 * knownMigrations(); // ['0001-initial']
 */
export function knownMigrations(): string[] {
  return MIGRATIONS.map((migration) => migration.name);
}
