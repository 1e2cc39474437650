export { NodeSqliteDatabase } from './node-sqlite/index.ts';
export {
  createPostgresClient,
  createPostgresPool,
  isPostgresUrl,
  isUniqueViolation,
  openDatabase,
} from './open-database.ts';
export type { OpenDatabaseOptions, WorkbenchDatabase } from './open-database.ts';
export { knownMigrations, migrateDown, migrateToLatest } from './migrate.ts';
export type { MigrationReport } from './migrate.ts';
export type { DialectName } from './migrations/index.ts';
export { IN_FLIGHT_STATUSES, RUN_KINDS, RUN_PHASES, RUN_STATUSES } from './schema.ts';
export type * from './schema.ts';
export type * from './hitl-schema.ts';
export type * from './knowledge-schema.ts';
export type * from './idempotency-schema.ts';
