import { sql } from 'kysely';
import type { WorkbenchMigration } from './migration.ts';

/**
 * A project's knowledge (spec §4.12): indexed items with their status, their chunks, and the
 * optional chunk vectors. Full text: an external-content FTS5 table with the trigram tokenizer on
 * SQLite (CJK and Latin alike, bm25 ranking); a pg_trgm GIN index over heading and text on
 * PostgreSQL (decision 0014).
 */
export const knowledgeMigration: WorkbenchMigration = {
  name: '0055-knowledge',
  async up(db, dialect) {
    await db.schema
      .createTable('knowledge_items')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('project_id', 'text', (column) => column.references('projects.id').onDelete('cascade'))
      .addColumn('source', 'text', (column) => column.notNull())
      .addColumn('source_id', 'text', (column) => column.notNull())
      .addColumn('document_id', 'text')
      .addColumn('title', 'text', (column) => column.notNull())
      .addColumn('media_type', 'text', (column) => column.notNull())
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('error_code', 'text')
      .addColumn('error_message', 'text')
      .addColumn('chunk_count', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('embedded_count', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('source_version', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('indexed_at', 'bigint')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .addUniqueConstraint('knowledge_items_source_unique', ['source', 'source_id'])
      .execute();
    await db.schema
      .createIndex('knowledge_items_by_project')
      .on('knowledge_items')
      .columns(['project_id', 'updated_at'])
      .execute();
    await db.schema.createIndex('knowledge_items_by_status').on('knowledge_items').column('status').execute();

    await db.schema
      .createTable('knowledge_chunks')
      .addColumn('id', dialect === 'sqlite' ? 'integer' : 'bigserial', (column) =>
        dialect === 'sqlite' ? column.primaryKey().autoIncrement() : column.primaryKey(),
      )
      .addColumn('knowledge_id', 'text', (column) =>
        column.notNull().references('knowledge_items.id').onDelete('cascade'),
      )
      .addColumn('project_id', 'text')
      .addColumn('source', 'text', (column) => column.notNull())
      .addColumn('ordinal', 'integer', (column) => column.notNull())
      .addColumn('version', 'integer', (column) => column.notNull())
      .addColumn('text', 'text', (column) => column.notNull())
      .addColumn('heading_path', 'text', (column) => column.notNull())
      .addColumn('heading_text', 'text', (column) => column.notNull())
      .addColumn('location', 'text', (column) => column.notNull())
      .addColumn('block_start', 'integer', (column) => column.notNull())
      .addColumn('block_end', 'integer', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema
      .createIndex('knowledge_chunks_by_item')
      .on('knowledge_chunks')
      .columns(['knowledge_id', 'ordinal'])
      .execute();
    await db.schema
      .createIndex('knowledge_chunks_by_project')
      .on('knowledge_chunks')
      .column('project_id')
      .execute();

    await db.schema
      .createTable('knowledge_vectors')
      .addColumn('chunk_id', 'bigint', (column) =>
        column.notNull().references('knowledge_chunks.id').onDelete('cascade'),
      )
      .addColumn('knowledge_id', 'text', (column) => column.notNull())
      .addColumn('project_id', 'text')
      .addColumn('model', 'text', (column) => column.notNull())
      .addColumn('dimensions', 'integer', (column) => column.notNull())
      .addColumn('vector', dialect === 'sqlite' ? 'blob' : sql`real[]`, (column) => column.notNull())
      .addPrimaryKeyConstraint('knowledge_vectors_pk', ['chunk_id', 'model'])
      .execute();
    await db.schema
      .createIndex('knowledge_vectors_by_model')
      .on('knowledge_vectors')
      .columns(['model', 'project_id'])
      .execute();
    await db.schema
      .createIndex('knowledge_vectors_by_item')
      .on('knowledge_vectors')
      .column('knowledge_id')
      .execute();

    if (dialect === 'sqlite') {
      await sql`create virtual table knowledge_fts using fts5(text, heading, content = 'knowledge_chunks',
        content_rowid = 'id', tokenize = 'trigram')`.execute(db);
      await sql`create trigger knowledge_chunks_fts_insert after insert on knowledge_chunks begin
        insert into knowledge_fts (rowid, text, heading) values (new.id, new.text, new.heading_text); end`.execute(
        db,
      );
      await sql`create trigger knowledge_chunks_fts_delete after delete on knowledge_chunks begin
        insert into knowledge_fts (knowledge_fts, rowid, text, heading)
        values ('delete', old.id, old.text, old.heading_text); end`.execute(db);
      return;
    }
    // pg_trgm makes ILIKE '%…%' over heading and text use an index; without the privilege to
    // install it, search still works, by scanning (as 0001's title search).
    await sql`savepoint knowledge_search`.execute(db);
    try {
      await sql`create extension if not exists pg_trgm`.execute(db);
      const found = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
        join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
      const schema = found.rows[0]?.schema ?? 'public';
      await sql`create index knowledge_chunks_trigram on knowledge_chunks
        using gin ((heading_text || ' ' || text) ${sql.id(schema)}.gin_trgm_ops)`.execute(db);
      await sql`release savepoint knowledge_search`.execute(db);
    } catch {
      await sql`rollback to savepoint knowledge_search`.execute(db);
    }
  },
  async down(db, dialect) {
    if (dialect === 'sqlite') await sql`drop table if exists knowledge_fts`.execute(db);
    await db.schema.dropTable('knowledge_vectors').ifExists().execute();
    await db.schema.dropTable('knowledge_chunks').ifExists().execute();
    await db.schema.dropTable('knowledge_items').ifExists().execute();
  },
};
