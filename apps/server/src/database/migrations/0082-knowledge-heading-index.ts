import { sql } from 'kysely';
import type { WorkbenchMigration } from './migration.ts';

/**
 * An index over knowledge chunks' headings alone, so a search for a term in most chunks can take
 * the chunks whose heading names it as ranking candidates without reading every match (decision
 * 0021): on SQLite a second external-content FTS5 trigram table over `heading_text`, kept in step
 * by triggers and built from the chunks already there; on PostgreSQL a pg_trgm GIN index on
 * `heading_text` (where pg_trgm could be installed: 0055 did that).
 */
export const knowledgeHeadingIndexMigration: WorkbenchMigration = {
  name: '0082-knowledge-heading-index',
  async up(db, dialect) {
    if (dialect === 'sqlite') {
      await sql`create virtual table knowledge_headings_fts using fts5(heading_text,
        content = 'knowledge_chunks', content_rowid = 'id', tokenize = 'trigram')`.execute(db);
      await sql`create trigger knowledge_chunks_headings_insert after insert on knowledge_chunks begin
        insert into knowledge_headings_fts (rowid, heading_text) values (new.id, new.heading_text); end`.execute(
        db,
      );
      await sql`create trigger knowledge_chunks_headings_delete after delete on knowledge_chunks begin
        insert into knowledge_headings_fts (knowledge_headings_fts, rowid, heading_text)
        values ('delete', old.id, old.heading_text); end`.execute(db);
      await sql`insert into knowledge_headings_fts (knowledge_headings_fts) values ('rebuild')`.execute(db);
      return;
    }
    const found = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
      join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
    const schema = found.rows[0]?.schema;
    if (schema === undefined) return;
    await sql`create index if not exists knowledge_chunks_heading_trigram on knowledge_chunks
      using gin (heading_text ${sql.id(schema)}.gin_trgm_ops)`.execute(db);
  },
  async down(db, dialect) {
    if (dialect === 'sqlite') {
      await sql`drop trigger if exists knowledge_chunks_headings_insert`.execute(db);
      await sql`drop trigger if exists knowledge_chunks_headings_delete`.execute(db);
      await sql`drop table if exists knowledge_headings_fts`.execute(db);
      return;
    }
    await sql`drop index if exists knowledge_chunks_heading_trigram`.execute(db);
  },
};
