import { sql } from 'kysely';
import { Migrator, type Migration, type MigrationResultSet } from 'kysely/migration';
import { MIGRATIONS } from './migrations/index.ts';
import type { WorkbenchDatabase } from './open-database.ts';

const MIGRATION_TABLE = 'workbench_migrations';
const MIGRATION_LOCK_TABLE = 'workbench_migrations_lock';

async function migrator(database: WorkbenchDatabase): Promise<Migrator> {
  // Without a schema, Kysely looks for its table in every schema: a server on one schema would
  // see another's migration table and skip creating its own.
  const schema =
    database.dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db)).rows[0]
          ?.schema
      : undefined;
  const migrations: Record<string, Migration> = {};
  for (const migration of MIGRATIONS) {
    migrations[migration.name] = {
      up: (db) => migration.up(db, database.dialect),
      down: (db) => migration.down(db, database.dialect),
    };
  }
  return new Migrator({
    db: database.db,
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

async function appliedNames(database: WorkbenchDatabase): Promise<string[]> {
  const all = await (await migrator(database)).getMigrations();
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
  const result = await (await migrator(database)).migrateToLatest();
  return report(result, await appliedNames(database));
}

/**
 * Rolls back the newest applied migration (spec §5: every migration has a way back).
 *
 * @example
 * await migrateDown(database);
 */
export async function migrateDown(database: WorkbenchDatabase): Promise<MigrationReport> {
  const result = await (await migrator(database)).migrateDown();
  return report(result, await appliedNames(database));
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
