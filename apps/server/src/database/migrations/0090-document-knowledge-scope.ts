import type { WorkbenchMigration } from './migration.ts';

/**
 * Whether an uploaded document joins its project's knowledge (`project`, what every document so
 * far did) or stays in its conversation (`conversation`): the per-upload choice of decision 0029.
 */
export const documentKnowledgeScopeMigration: WorkbenchMigration = {
  name: '0090-document-knowledge-scope',
  async up(db) {
    await db.schema
      .alterTable('documents')
      .addColumn('knowledge_scope', 'text', (column) => column.notNull().defaultTo('project'))
      .execute();
  },
  async down(db) {
    await db.schema.alterTable('documents').dropColumn('knowledge_scope').execute();
  },
};
