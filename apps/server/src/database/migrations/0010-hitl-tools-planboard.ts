import type { WorkbenchMigration } from './migration.ts';

/**
 * HITL cards, the tool-call audit, per-conversation tool grants and the planboard (issue 10).
 * Every table belongs to a conversation and goes with it.
 */
export const hitlToolsPlanboardMigration: WorkbenchMigration = {
  name: '0010-hitl-tools-planboard',
  async up(db) {
    await db.schema
      .createTable('hitl_cards')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('conversation_id', 'text', (column) =>
        column.notNull().references('conversations.id').onDelete('cascade'),
      )
      .addColumn('run_id', 'text', (column) => column.notNull())
      .addColumn('message_id', 'text', (column) => column.notNull())
      .addColumn('call_id', 'text', (column) => column.notNull())
      .addColumn('kind', 'text', (column) => column.notNull())
      .addColumn('card', 'text', (column) => column.notNull())
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('resolution', 'text')
      .addColumn('client_key', 'text')
      .addColumn('instance_id', 'text')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('expires_at', 'bigint')
      .addColumn('resolved_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('hitl_cards_by_conversation')
      .on('hitl_cards')
      .columns(['conversation_id', 'status'])
      .execute();
    await db.schema.createIndex('hitl_cards_by_run').on('hitl_cards').columns(['run_id', 'status']).execute();

    await db.schema
      .createTable('tool_audit')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('conversation_id', 'text', (column) =>
        column.notNull().references('conversations.id').onDelete('cascade'),
      )
      .addColumn('project_id', 'text')
      .addColumn('run_id', 'text', (column) => column.notNull())
      .addColumn('call_id', 'text', (column) => column.notNull())
      .addColumn('tool_name', 'text', (column) => column.notNull())
      .addColumn('arguments_summary', 'text', (column) => column.notNull())
      .addColumn('outcome', 'text', (column) => column.notNull())
      .addColumn('error_code', 'text')
      .addColumn('duration_ms', 'integer', (column) => column.notNull())
      .addColumn('policy', 'text', (column) => column.notNull())
      .addColumn('decided_by', 'text', (column) => column.notNull())
      .addColumn('card_id', 'text')
      .addColumn('started_at', 'bigint', (column) => column.notNull())
      .addColumn('ended_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema
      .createIndex('tool_audit_by_conversation')
      .on('tool_audit')
      .columns(['conversation_id', 'started_at'])
      .execute();
    await db.schema
      .createIndex('tool_audit_by_project')
      .on('tool_audit')
      .columns(['project_id', 'started_at'])
      .execute();

    await db.schema
      .createTable('tool_grants')
      .addColumn('conversation_id', 'text', (column) =>
        column.notNull().references('conversations.id').onDelete('cascade'),
      )
      .addColumn('tool_name', 'text', (column) => column.notNull())
      .addColumn('card_id', 'text')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('tool_grants_primary_key', ['conversation_id', 'tool_name'])
      .execute();

    await db.schema
      .createTable('planboards')
      .addColumn('conversation_id', 'text', (column) =>
        column.primaryKey().references('conversations.id').onDelete('cascade'),
      )
      .addColumn('plan', 'text', (column) => column.notNull())
      .addColumn('plan_version', 'integer', (column) => column.notNull())
      .addColumn('plan_explanation', 'text')
      .addColumn('todos', 'text', (column) => column.notNull())
      .addColumn('todos_version', 'integer', (column) => column.notNull())
      .addColumn('pending_changes', 'text', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .execute();
  },
  async down(db) {
    for (const table of ['planboards', 'tool_grants', 'tool_audit', 'hitl_cards']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
