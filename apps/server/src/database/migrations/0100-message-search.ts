import { sql } from 'kysely';
import type { WorkbenchMigration } from './migration.ts';

/**
 * Message text search (decision 0039): `message_texts` holds the plain text of every user and
 * assistant message, one row per `session.record` event, filled by a trigger on `events` so every
 * writer keeps it current and a deleted event (or conversation) takes its row with it. Full text
 * as the knowledge index (decision 0014): an external-content FTS5 trigram table on SQLite (CJK
 * and Latin alike), a pg_trgm GIN index on PostgreSQL. Existing messages are backfilled here.
 */
export const messageSearchMigration: WorkbenchMigration = {
  name: '0100-message-search',
  async up(db, dialect) {
    await db.schema
      .createTable('message_texts')
      .addColumn('id', dialect === 'sqlite' ? 'integer' : 'bigserial', (column) =>
        dialect === 'sqlite' ? column.primaryKey().autoIncrement() : column.primaryKey(),
      )
      .addColumn('conversation_id', 'text', (column) => column.notNull())
      .addColumn('seq', 'bigint', (column) => column.notNull())
      .addColumn('run_id', 'text')
      .addColumn('role', 'text', (column) => column.notNull())
      .addColumn('text', 'text', (column) => column.notNull())
      .addColumn('ts', 'bigint', (column) => column.notNull())
      .addUniqueConstraint('message_texts_event_unique', ['conversation_id', 'seq'])
      .addForeignKeyConstraint(
        'message_texts_event',
        ['conversation_id', 'seq'],
        'events',
        ['conversation_id', 'seq'],
        (constraint) => constraint.onDelete('cascade'),
      )
      .execute();
    await db.schema.createIndex('message_texts_by_ts').on('message_texts').column('ts').execute();

    if (dialect === 'sqlite') {
      const role = sql`case json_extract(new.payload, '$.record.type') when 'user_message' then 'user' else 'assistant' end`;
      // A user message's content is blocks; its text blocks, joined, are what the user wrote.
      const text = sql`case json_extract(new.payload, '$.record.type')
        when 'assistant_message' then json_extract(new.payload, '$.record.content')
        else (select group_concat(json_extract(block.value, '$.text'), char(10))
          from json_each(new.payload, '$.record.content') as block
          where json_extract(block.value, '$.type') = 'text') end`;
      await sql`create trigger events_message_text after insert on events
        when new.type = 'session.record'
          and json_extract(new.payload, '$.record.type') in ('user_message', 'assistant_message')
        begin
          insert into message_texts (conversation_id, seq, run_id, role, text, ts)
          select new.conversation_id, new.seq, new.run_id, ${role}, message_text, new.ts
          from (select ${text} as message_text) where coalesce(message_text, '') <> '';
        end`.execute(db);
      await sql`create virtual table message_texts_fts using fts5(text, content = 'message_texts',
        content_rowid = 'id', tokenize = 'trigram')`.execute(db);
      await sql`create trigger message_texts_fts_insert after insert on message_texts begin
        insert into message_texts_fts (rowid, text) values (new.id, new.text); end`.execute(db);
      await sql`create trigger message_texts_fts_delete after delete on message_texts begin
        insert into message_texts_fts (message_texts_fts, rowid, text) values ('delete', old.id, old.text); end`.execute(
        db,
      );
      await sql`insert into message_texts (conversation_id, seq, run_id, role, text, ts)
        select conversation_id, seq, run_id, role, message_text, ts from (
          select e.conversation_id, e.seq, e.run_id, e.ts,
            case json_extract(e.payload, '$.record.type') when 'user_message' then 'user' else 'assistant' end as role,
            case json_extract(e.payload, '$.record.type')
              when 'assistant_message' then json_extract(e.payload, '$.record.content')
              else (select group_concat(json_extract(block.value, '$.text'), char(10))
                from json_each(e.payload, '$.record.content') as block
                where json_extract(block.value, '$.type') = 'text') end as message_text
          from events e where e.type = 'session.record'
            and json_extract(e.payload, '$.record.type') in ('user_message', 'assistant_message')
        ) where coalesce(message_text, '') <> '' order by conversation_id, seq`.execute(db);
      return;
    }
    // jsonb holds no U+0000 while an event's text may (a model reply with NUL, kept whole): the
    // searchable copy reads the payload without it rather than failing the event's insert.
    await sql`create or replace function message_payload(payload text) returns jsonb language plpgsql immutable as $$
      begin
        return payload::jsonb;
      exception when untranslatable_character or invalid_text_representation then
        return replace(payload, '\\u0000', '')::jsonb;
      end
    $$`.execute(db);
    await sql`create or replace function message_text_of(payload jsonb) returns text language sql immutable as $$
      select case payload #>> '{record,type}'
        when 'assistant_message' then payload #>> '{record,content}'
        else (select string_agg(block ->> 'text', E'\n') from jsonb_array_elements(
          case jsonb_typeof(payload #> '{record,content}') when 'array' then payload #> '{record,content}' else '[]'::jsonb end
        ) as block where block ->> 'type' = 'text') end
    $$`.execute(db);
    await sql`create or replace function events_message_text() returns trigger language plpgsql as $$
      declare
        payload jsonb := message_payload(new.payload);
        kind text := payload #>> '{record,type}';
        body text := message_text_of(payload);
      begin
        if kind in ('user_message', 'assistant_message') and coalesce(body, '') <> '' then
          insert into message_texts (conversation_id, seq, run_id, role, text, ts)
          values (new.conversation_id, new.seq, new.run_id,
            case kind when 'user_message' then 'user' else 'assistant' end, body, new.ts);
        end if;
        return null;
      end
    $$`.execute(db);
    await sql`create trigger events_message_text after insert on events for each row
      when (new.type = 'session.record') execute function events_message_text()`.execute(db);
    await sql`insert into message_texts (conversation_id, seq, run_id, role, text, ts)
      select conversation_id, seq, run_id, role, message_text, ts from (
        select e.conversation_id, e.seq, e.run_id, e.ts, message_text_of(p.payload) as message_text,
          p.payload #>> '{record,type}' as kind,
          case p.payload #>> '{record,type}' when 'user_message' then 'user' else 'assistant' end as role
        from events e cross join lateral (select message_payload(e.payload) as payload) as p
        where e.type = 'session.record'
      ) as messages where kind in ('user_message', 'assistant_message') and coalesce(message_text, '') <> ''
      order by conversation_id, seq`.execute(db);
    // As the knowledge index: pg_trgm serves ILIKE '%…%'; without the privilege to install it,
    // search still works, by scanning.
    await sql`savepoint message_search`.execute(db);
    try {
      await sql`create extension if not exists pg_trgm`.execute(db);
      const found = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
        join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
      const schema = found.rows[0]?.schema ?? 'public';
      await sql`create index message_texts_trigram on message_texts
        using gin (text ${sql.id(schema)}.gin_trgm_ops)`.execute(db);
      await sql`release savepoint message_search`.execute(db);
    } catch {
      await sql`rollback to savepoint message_search`.execute(db);
    }
  },
  async down(db, dialect) {
    if (dialect === 'sqlite') {
      await sql`drop trigger if exists events_message_text`.execute(db);
      await sql`drop table if exists message_texts_fts`.execute(db);
    } else {
      await sql`drop trigger if exists events_message_text on events`.execute(db);
      await sql`drop function if exists events_message_text()`.execute(db);
    }
    await db.schema.dropTable('message_texts').ifExists().execute();
    if (dialect === 'postgres') {
      await sql`drop function if exists message_text_of(jsonb)`.execute(db);
      await sql`drop function if exists message_payload(text)`.execute(db);
    }
  },
};
