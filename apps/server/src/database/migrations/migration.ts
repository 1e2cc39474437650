import type { Kysely } from 'kysely';

/** The two database engines the workbench runs on. */
export type DialectName = 'sqlite' | 'postgres';

/**
 * One versioned schema change for both engines: the same steps, with the few engine-specific
 * statements (full-text search) chosen by `dialect`. Every migration can be rolled back (spec §5).
 */
export interface WorkbenchMigration {
  /** Sorts the migrations: `0001-initial`, `0002-…`. */
  name: string;
  // Kysely's migrator hands migrations an untyped database: the schema is what they create.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
  up(db: Kysely<any>, dialect: DialectName): Promise<void>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
  down(db: Kysely<any>, dialect: DialectName): Promise<void>;
}
