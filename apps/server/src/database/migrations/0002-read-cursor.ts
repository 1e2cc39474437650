import type { WorkbenchMigration } from './migration.ts';

/** How far the user has read each conversation (a seq), kept on the server so every browser agrees. */
export const readCursorMigration: WorkbenchMigration = {
  name: '0002-read-cursor',
  async up(db) {
    await db.schema
      .alterTable('conversations')
      .addColumn('read_seq', 'bigint', (column) => column.notNull().defaultTo(0))
      .execute();
  },
  async down(db) {
    await db.schema.alterTable('conversations').dropColumn('read_seq').execute();
  },
};
