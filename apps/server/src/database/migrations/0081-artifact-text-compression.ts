import { sql } from 'kysely';
import type { WorkbenchMigration } from './migration.ts';

/**
 * PostgreSQL: artifact versions (whole texts, up to megabytes) are compressed with lz4 instead of
 * the default pglz, several times cheaper to write for a similar size; only where the server was
 * built with lz4 (PostgreSQL 14+). Rows already written keep their compression. SQLite stores
 * text as it is: nothing to do.
 */
export const artifactTextCompressionMigration: WorkbenchMigration = {
  name: '0081-artifact-text-compression',
  async up(db, dialect) {
    if (dialect !== 'postgres') return;
    const available = await sql<{ lz4: boolean }>`select coalesce(
        (select 'lz4' = any(enumvals) from pg_settings where name = 'default_toast_compression'),
        false) as lz4`.execute(db);
    if (available.rows[0]?.lz4 !== true) return;
    await sql`alter table artifact_versions alter column content set compression lz4`.execute(db);
  },
  async down(db, dialect) {
    if (dialect !== 'postgres') return;
    const current = await sql<{ compression: string | null }>`select attcompression::text as compression
      from pg_attribute where attrelid = 'artifact_versions'::regclass and attname = 'content'`.execute(db);
    if (current.rows[0]?.compression === 'l') {
      await sql`alter table artifact_versions alter column content set compression default`.execute(db);
    }
  },
};
