import type { WorkbenchMigration } from './migration.ts';

/**
 * MCP servers the user configured (spec §4.8): per user (`scope_key` 'user') or per project
 * (`scope_key` the project id, deleted with it). Secret header values live in `secrets`; the row
 * keeps only their ids.
 */
export const mcpServersMigration: WorkbenchMigration = {
  name: '0040-mcp-servers',
  async up(db) {
    await db.schema
      .createTable('mcp_servers')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('owner', 'text')
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('scope', 'text', (column) => column.notNull())
      .addColumn('project_id', 'text', (column) => column.references('projects.id').onDelete('cascade'))
      .addColumn('scope_key', 'text', (column) => column.notNull())
      .addColumn('enabled', 'integer', (column) => column.notNull().defaultTo(1))
      .addColumn('transport', 'text', (column) => column.notNull())
      .addColumn('secret_headers', 'text', (column) => column.notNull().defaultTo('{}'))
      .addColumn('tool_timeout_ms', 'integer')
      .addColumn('idle_timeout_ms', 'integer')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema
      .createIndex('mcp_servers_unique_name')
      .on('mcp_servers')
      .columns(['scope_key', 'name'])
      .unique()
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('mcp_servers').execute();
  },
};
