import type { WorkbenchMigration } from './migration.ts';

/**
 * Artifacts with versions (spec §4.3 artifacts) and the task of each sub-agent run (spec §4.2,
 * §4.4 AgentTracker). The artifacts table of 0001 gains what the viewer needs; each version's
 * text is kept whole, so any two can be diffed.
 */
export const artifactsMigration: WorkbenchMigration = {
  name: '0020-artifacts-and-subagents',
  async up(db) {
    // One column per statement: SQLite alters a table one column at a time.
    await db.schema
      .alterTable('artifacts')
      .addColumn('kind', 'text', (column) => column.notNull().defaultTo('text'))
      .execute();
    await db.schema.alterTable('artifacts').addColumn('language', 'text').execute();
    await db.schema.alterTable('artifacts').addColumn('project_id', 'text').execute();
    await db.schema
      .alterTable('artifacts')
      .addColumn('size', 'bigint', (column) => column.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createIndex('artifacts_by_conversation')
      .on('artifacts')
      .columns(['conversation_id', 'updated_at'])
      .execute();
    await db.schema
      .createIndex('artifacts_by_project')
      .on('artifacts')
      .columns(['project_id', 'updated_at'])
      .execute();
    await db.schema.createIndex('artifacts_by_run').on('artifacts').column('run_id').execute();

    await db.schema
      .createTable('artifact_versions')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('artifact_id', 'text', (column) =>
        column.notNull().references('artifacts.id').onDelete('cascade'),
      )
      .addColumn('version', 'integer', (column) => column.notNull())
      .addColumn('change', 'text', (column) => column.notNull())
      .addColumn('run_id', 'text')
      .addColumn('content', 'text', (column) => column.notNull())
      .addColumn('size', 'bigint', (column) => column.notNull())
      .addColumn('lines', 'integer', (column) => column.notNull())
      .addColumn('sha256', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addUniqueConstraint('artifact_versions_unique', ['artifact_id', 'version'])
      .execute();

    await db.schema
      .createTable('subagent_tasks')
      .addColumn('run_id', 'text', (column) => column.primaryKey().references('runs.id').onDelete('cascade'))
      .addColumn('conversation_id', 'text', (column) =>
        column.notNull().references('conversations.id').onDelete('cascade'),
      )
      .addColumn('parent_run_id', 'text', (column) => column.notNull())
      .addColumn('root_run_id', 'text', (column) => column.notNull())
      .addColumn('call_id', 'text', (column) => column.notNull())
      .addColumn('task', 'text', (column) => column.notNull())
      .addColumn('instructions', 'text')
      .addColumn('expected_output', 'text')
      .addColumn('tools', 'text', (column) => column.notNull())
      .addColumn('profile_id', 'text')
      .addColumn('depth', 'integer', (column) => column.notNull())
      .addColumn('budget', 'text', (column) => column.notNull())
      .addColumn('current_tool', 'text')
      .addColumn('last_text', 'text', (column) => column.notNull().defaultTo(''))
      .addColumn('input_tokens', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('output_tokens', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('tool_calls', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('result', 'text')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema
      .createIndex('subagent_tasks_by_conversation')
      .on('subagent_tasks')
      .columns(['conversation_id', 'created_at'])
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('subagent_tasks').execute();
    await db.schema.dropTable('artifact_versions').execute();
    await db.schema.dropIndex('artifacts_by_run').execute();
    await db.schema.dropIndex('artifacts_by_project').execute();
    await db.schema.dropIndex('artifacts_by_conversation').execute();
    for (const column of ['size', 'project_id', 'language', 'kind']) {
      await db.schema.alterTable('artifacts').dropColumn(column).execute();
    }
  },
};
