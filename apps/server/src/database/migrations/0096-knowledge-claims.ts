import type { WorkbenchMigration } from './migration.ts';

/**
 * Which server instance holds a queued or indexing knowledge item and since when (decision 0043),
 * as documents have since 0095: an item whose claimer is no longer live is queued again.
 */
export const knowledgeClaimsMigration: WorkbenchMigration = {
  name: '0096-knowledge-claims',
  async up(db) {
    await db.schema.alterTable('knowledge_items').addColumn('claimed_by', 'text').execute();
    await db.schema.alterTable('knowledge_items').addColumn('claimed_at', 'bigint').execute();
  },
  async down(db) {
    await db.schema.alterTable('knowledge_items').dropColumn('claimed_at').execute();
    await db.schema.alterTable('knowledge_items').dropColumn('claimed_by').execute();
  },
};
