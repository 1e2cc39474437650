import type { WorkbenchMigration } from './migration.ts';

/**
 * Parsed documents (spec §4.11): one row per upload (or artifact) a parser reads — its status,
 * failure, the ParsedDocument IR as JSON, the parser's provenance — and each project's parse
 * policy. A document goes with its upload; it outlives its conversation like the upload does.
 */
export const documentsMigration: WorkbenchMigration = {
  name: '0050-documents',
  async up(db) {
    await db.schema
      .createTable('documents')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('owner', 'text')
      .addColumn('project_id', 'text', (column) => column.references('projects.id').onDelete('set null'))
      .addColumn('conversation_id', 'text', (column) =>
        column.references('conversations.id').onDelete('set null'),
      )
      .addColumn('message_id', 'text')
      .addColumn('upload_id', 'text', (column) => column.references('uploads.id').onDelete('cascade'))
      .addColumn('artifact_id', 'text')
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('media_type', 'text', (column) => column.notNull())
      .addColumn('format', 'text')
      .addColumn('size', 'bigint', (column) => column.notNull())
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('failure_reason', 'text')
      .addColumn('failure', 'text')
      .addColumn('metadata', 'text')
      .addColumn('provenance', 'text')
      .addColumn('parser_id', 'text')
      .addColumn('parser_version', 'text')
      .addColumn('source', 'text')
      .addColumn('ir', 'text')
      .addColumn('block_count', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('documents_conversation').on('documents').column('conversation_id').execute();
    await db.schema.createIndex('documents_project').on('documents').column('project_id').execute();
    await db.schema.createIndex('documents_upload').on('documents').column('upload_id').execute();
    await db.schema.createIndex('documents_status').on('documents').column('status').execute();
    await db.schema
      .createTable('document_parse_policies')
      .addColumn('project_id', 'text', (column) =>
        column.primaryKey().references('projects.id').onDelete('cascade'),
      )
      .addColumn('policy', 'text', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('document_parse_policies').execute();
    await db.schema.dropTable('documents').execute();
  },
};
