import type { WorkbenchMigration } from './migration.ts';

/**
 * Which server instance holds a queued or parsing document and since when (decision 0030): a
 * document whose claimer is no longer a live instance is queued again by the recovery sweep.
 */
export const documentClaimsMigration: WorkbenchMigration = {
  name: '0095-document-claims',
  async up(db) {
    await db.schema.alterTable('documents').addColumn('claimed_by', 'text').execute();
    await db.schema.alterTable('documents').addColumn('claimed_at', 'bigint').execute();
  },
  async down(db) {
    await db.schema.alterTable('documents').dropColumn('claimed_at').execute();
    await db.schema.alterTable('documents').dropColumn('claimed_by').execute();
  },
};
