import type { WorkbenchMigration } from './migration.ts';

/**
 * Context assembly reports and memory (spec §4.10, §4.13). `context_reports` keeps, per model call
 * of a run, what the model saw (tokens per slot, trims). `memories` (reserved by 0001) gains the
 * §4.13 model: scope, project, type, the run it came from, confidence, last access and expiry.
 * `memory_candidates` holds what the lightweight model proposed after a run until the user accepts
 * or rejects it.
 */
export const contextReportsAndMemoryMigration: WorkbenchMigration = {
  name: '0060-context-reports-and-memory',
  async up(db) {
    await db.schema
      .createTable('context_reports')
      .addColumn('run_id', 'text', (column) => column.notNull().references('runs.id').onDelete('cascade'))
      .addColumn('call_index', 'integer', (column) => column.notNull())
      .addColumn('report', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('context_reports_pk', ['run_id', 'call_index'])
      .execute();

    // One column per statement: SQLite alters a table one column at a time.
    await db.schema
      .alterTable('memories')
      .addColumn('scope', 'text', (column) => column.notNull().defaultTo('user'))
      .execute();
    await db.schema.alterTable('memories').addColumn('project_id', 'text').execute();
    await db.schema
      .alterTable('memories')
      .addColumn('type', 'text', (column) => column.notNull().defaultTo('fact'))
      .execute();
    await db.schema.alterTable('memories').addColumn('source_run_id', 'text').execute();
    await db.schema
      .alterTable('memories')
      .addColumn('confidence', 'real', (column) => column.notNull().defaultTo(1))
      .execute();
    await db.schema.alterTable('memories').addColumn('last_accessed_at', 'bigint').execute();
    await db.schema.alterTable('memories').addColumn('expires_at', 'bigint').execute();
    await db.schema
      .createIndex('memories_by_scope')
      .on('memories')
      .columns(['scope', 'project_id', 'updated_at'])
      .execute();

    await db.schema
      .createTable('memory_candidates')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('conversation_id', 'text', (column) =>
        column.notNull().references('conversations.id').onDelete('cascade'),
      )
      .addColumn('run_id', 'text', (column) => column.notNull())
      .addColumn('scope', 'text', (column) => column.notNull())
      .addColumn('project_id', 'text')
      .addColumn('type', 'text', (column) => column.notNull())
      .addColumn('content', 'text', (column) => column.notNull())
      .addColumn('confidence', 'real', (column) => column.notNull())
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('memory_id', 'text')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('resolved_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('memory_candidates_by_conversation')
      .on('memory_candidates')
      .columns(['conversation_id', 'created_at'])
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('memory_candidates').execute();
    await db.schema.dropIndex('memories_by_scope').execute();
    for (const column of [
      'expires_at',
      'last_accessed_at',
      'confidence',
      'source_run_id',
      'type',
      'project_id',
      'scope',
    ])
      await db.schema.alterTable('memories').dropColumn(column).execute();
    await db.schema.dropTable('context_reports').execute();
  },
};
