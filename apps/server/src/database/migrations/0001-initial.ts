import { sql, type Kysely } from 'kysely';
import type { DialectName, WorkbenchMigration } from './migration.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
type AnyDatabase = Kysely<any>;

/** Drop order: children before parents. */
const TABLES = [
  'memories',
  'usage',
  'provider_configs',
  'secrets',
  'settings',
  'artifacts',
  'uploads',
  'agent_sessions',
  'events',
  'runs',
  'conversations',
  'projects',
  'instances',
] as const;

async function createCoreTables(db: AnyDatabase): Promise<void> {
  await db.schema
    .createTable('projects')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('owner', 'text')
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('directory', 'text')
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('conversations')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('owner', 'text')
    .addColumn('project_id', 'text', (column) => column.references('projects.id').onDelete('cascade'))
    .addColumn('title', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('title_source', 'text', (column) => column.notNull().defaultTo('none'))
    .addColumn('model_id', 'text')
    .addColumn('active_run_id', 'text')
    .addColumn('last_seq', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('conversations_by_update')
    .on('conversations')
    .columns(['updated_at', 'id'])
    .execute();
  await db.schema
    .createIndex('conversations_by_project')
    .on('conversations')
    .columns(['project_id', 'updated_at'])
    .execute();

  await db.schema
    .createTable('runs')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('owner', 'text')
    .addColumn('conversation_id', 'text', (column) =>
      column.notNull().references('conversations.id').onDelete('cascade'),
    )
    .addColumn('project_id', 'text')
    .addColumn('parent_run_id', 'text')
    .addColumn('previous_run_id', 'text')
    .addColumn('user_message_id', 'text')
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('profile_id', 'text')
    .addColumn('model_id', 'text')
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('phase', 'text', (column) => column.notNull())
    .addColumn('error', 'text')
    .addColumn('usage', 'text')
    .addColumn('instance_id', 'text')
    .addColumn('cancel_requested', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('ended_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('runs_by_conversation')
    .on('runs')
    .columns(['conversation_id', 'created_at'])
    .execute();
  await db.schema.createIndex('runs_by_parent').on('runs').column('parent_run_id').execute();
  await db.schema.createIndex('runs_by_status').on('runs').columns(['status', 'instance_id']).execute();
  // One turn in flight per conversation, enforced by the database for every server sharing it.
  await sql`create unique index runs_one_in_flight on runs (conversation_id)
    where parent_run_id is null and status in ('pending', 'running', 'waiting_hitl')`.execute(db);

  await db.schema
    .createTable('events')
    .addColumn('conversation_id', 'text', (column) =>
      column.notNull().references('conversations.id').onDelete('cascade'),
    )
    .addColumn('seq', 'bigint', (column) => column.notNull())
    .addColumn('run_id', 'text')
    .addColumn('ts', 'bigint', (column) => column.notNull())
    .addColumn('v', 'integer', (column) => column.notNull())
    .addColumn('type', 'text', (column) => column.notNull())
    .addColumn('payload', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('events_primary_key', ['conversation_id', 'seq'])
    .execute();
  await db.schema.createIndex('events_by_run').on('events').columns(['run_id', 'seq']).execute();

  await db.schema
    .createTable('agent_sessions')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('conversation_id', 'text', (column) =>
      column.notNull().references('conversations.id').onDelete('cascade'),
    )
    .addColumn('title', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .addColumn('message_count', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('agent_sessions_by_update')
    .on('agent_sessions')
    .columns(['updated_at', 'id'])
    .execute();
}

async function createSupportTables(db: AnyDatabase): Promise<void> {
  await db.schema
    .createTable('uploads')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('owner', 'text')
    .addColumn('project_id', 'text', (column) => column.references('projects.id').onDelete('set null'))
    .addColumn('conversation_id', 'text', (column) =>
      column.references('conversations.id').onDelete('set null'),
    )
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('media_type', 'text', (column) => column.notNull())
    .addColumn('size', 'bigint', (column) => column.notNull())
    .addColumn('sha256', 'text', (column) => column.notNull())
    .addColumn('storage_path', 'text', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('artifacts')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('owner', 'text')
    .addColumn('conversation_id', 'text', (column) =>
      column.notNull().references('conversations.id').onDelete('cascade'),
    )
    .addColumn('run_id', 'text')
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('media_type', 'text', (column) => column.notNull())
    .addColumn('storage_path', 'text', (column) => column.notNull())
    .addColumn('version', 'integer', (column) => column.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('scope', 'text', (column) => column.notNull())
    .addColumn('scope_id', 'text', (column) => column.notNull())
    .addColumn('key', 'text', (column) => column.notNull())
    .addColumn('value', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('settings_primary_key', ['scope', 'scope_id', 'key'])
    .execute();

  await db.schema
    .createTable('secrets')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('owner', 'text')
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('ciphertext', 'text', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('provider_configs')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('owner', 'text')
    .addColumn('name', 'text', (column) => column.notNull().unique())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('base_url', 'text', (column) => column.notNull())
    .addColumn('secret_id', 'text', (column) => column.references('secrets.id').onDelete('set null'))
    .addColumn('models', 'text', (column) => column.notNull())
    .addColumn('options', 'text', (column) => column.notNull())
    .addColumn('enabled', 'integer', (column) => column.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('usage')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('owner', 'text')
    .addColumn('run_id', 'text', (column) => column.notNull())
    .addColumn('conversation_id', 'text', (column) => column.notNull())
    .addColumn('project_id', 'text')
    .addColumn('model_id', 'text')
    .addColumn('input_tokens', 'bigint', (column) => column.notNull())
    .addColumn('output_tokens', 'bigint', (column) => column.notNull())
    .addColumn('tool_calls', 'integer', (column) => column.notNull())
    .addColumn('model_calls', 'integer', (column) => column.notNull())
    .addColumn('duration_ms', 'bigint', (column) => column.notNull())
    .addColumn('day', 'text', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('usage_by_day').on('usage').column('day').execute();

  await db.schema
    .createTable('memories')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('owner', 'text')
    .addColumn('namespace', 'text', (column) => column.notNull())
    .addColumn('content', 'text', (column) => column.notNull())
    .addColumn('source', 'text', (column) => column.notNull())
    .addColumn('tags', 'text', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('memories_by_namespace')
    .on('memories')
    .columns(['namespace', 'updated_at'])
    .execute();

  await db.schema
    .createTable('instances')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('started_at', 'bigint', (column) => column.notNull())
    .addColumn('heartbeat_at', 'bigint', (column) => column.notNull())
    .addColumn('lock_key', 'bigint', (column) => column.notNull())
    .addColumn('pid', 'integer', (column) => column.notNull())
    .addColumn('hostname', 'text', (column) => column.notNull())
    .execute();
}

/** Title search: an FTS5 trigram index on SQLite (CJK and Latin alike), pg_trgm on PostgreSQL. */
async function createTitleSearch(db: AnyDatabase, dialect: DialectName): Promise<void> {
  if (dialect === 'sqlite') {
    await sql`create virtual table conversation_titles using fts5(conversation_id unindexed, title, tokenize = 'trigram')`.execute(
      db,
    );
    await sql`create trigger conversation_titles_insert after insert on conversations begin
      insert into conversation_titles (conversation_id, title) values (new.id, new.title); end`.execute(db);
    await sql`create trigger conversation_titles_update after update of title on conversations begin
      delete from conversation_titles where conversation_id = old.id;
      insert into conversation_titles (conversation_id, title) values (new.id, new.title); end`.execute(db);
    await sql`create trigger conversation_titles_delete after delete on conversations begin
      delete from conversation_titles where conversation_id = old.id; end`.execute(db);
    return;
  }
  // pg_trgm makes ILIKE '%…%' use an index. Without the privilege to install it, search still
  // works, by scanning.
  await sql`savepoint title_search`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
    const found = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
      join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
    const schema = found.rows[0]?.schema ?? 'public';
    await sql`create index conversations_title_trigram on conversations
      using gin (title ${sql.id(schema)}.gin_trgm_ops)`.execute(db);
    await sql`release savepoint title_search`.execute(db);
  } catch {
    await sql`rollback to savepoint title_search`.execute(db);
  }
}

/** Every table of the first release. */
export const initialMigration: WorkbenchMigration = {
  name: '0001-initial',
  async up(db, dialect) {
    await createCoreTables(db);
    await createSupportTables(db);
    await createTitleSearch(db, dialect);
  },
  async down(db, dialect) {
    if (dialect === 'sqlite') await sql`drop table if exists conversation_titles`.execute(db);
    for (const table of TABLES) await db.schema.dropTable(table).ifExists().execute();
  },
};
