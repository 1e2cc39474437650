import type { WorkbenchMigration } from './migration.ts';

/**
 * Agent profiles (spec §4.7; the built-in default lives in code, not here), the conversation's
 * bound profile, and the user's macros and snippets (spec §4.14).
 */
export const profilesAndLibraryMigration: WorkbenchMigration = {
  name: '0031-profiles-and-library',
  async up(db) {
    await db.schema
      .createTable('profiles')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('owner', 'text')
      .addColumn('name', 'text', (column) => column.notNull())
      /** The profile as JSON (ProfileInput). */
      .addColumn('definition', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema.alterTable('conversations').addColumn('profile_id', 'text').execute();
    await db.schema
      .createTable('macros')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('owner', 'text')
      .addColumn('name', 'text', (column) => column.notNull().unique())
      .addColumn('description', 'text', (column) => column.notNull())
      .addColumn('template', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema
      .createTable('snippets')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('owner', 'text')
      .addColumn('title', 'text', (column) => column.notNull())
      .addColumn('body', 'text', (column) => column.notNull())
      /** JSON array of strings. */
      .addColumn('tags', 'text', (column) => column.notNull().defaultTo('[]'))
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('snippets').execute();
    await db.schema.dropTable('macros').execute();
    await db.schema.alterTable('conversations').dropColumn('profile_id').execute();
    await db.schema.dropTable('profiles').execute();
  },
};
