import { randomUUID } from 'node:crypto';
import type { SessionPage, SessionRecord, SessionStorage, SessionSummary } from '@youyou/agent';
import { sql, type Kysely, type Transaction } from 'kysely';
import { isUniqueViolation, type Schema, type WorkbenchDatabase } from '../database/index.ts';
import type { EventLog } from '../events/index.ts';
import { decodeCursor, encodeCursor, likePattern } from './page-cursor.ts';

interface SessionRow {
  id: string;
  conversation_id: string;
  title: string;
  created_at: number;
  updated_at: number;
  message_count: number;
}

const RUN_CACHE_SIZE = 1024;
const DEFAULT_PAGE = 50;

function summaryOf(row: SessionRow): SessionSummary {
  return {
    sessionId: row.id,
    title: row.title,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    messageCount: row.message_count,
  };
}

/** Folds appended records into a session's summary row. */
function fold(row: SessionRow, records: readonly SessionRecord[]): SessionRow {
  const next = { ...row };
  for (const record of records) {
    if (next.created_at === 0) next.created_at = record.timestamp;
    next.updated_at = Math.max(next.updated_at, record.timestamp);
    if (record.type === 'user_message' || record.type === 'assistant_message') next.message_count++;
    if (record.type === 'metadata' && record.kind === 'title') next.title = record.title;
  }
  return next;
}

/**
 * The `SessionStorage` the workbench hands to `@youyou/agent` (one source of truth, decision
 * 0003): a session is a run, its records are `session.record` events in the conversation's event
 * log, and `load` returns the records of every run on the branch up to it, so a turn on any branch
 * sees exactly the history of that branch. A session id the workbench never created (another
 * program using this storage) becomes a conversation of its own.
 *
 * @example
 * const agent = await new AgentBuilder({ cwd }).addProvider(p).setSessionStorage(new WorkbenchSessionStorage({ database, eventLog })).build();
 */
export class WorkbenchSessionStorage implements SessionStorage {
  readonly #database: WorkbenchDatabase;
  readonly #eventLog: EventLog;
  /** session id → conversation id; a run never changes conversation. */
  readonly #conversations = new Map<string, string>();

  constructor(options: { database: WorkbenchDatabase; eventLog: EventLog }) {
    this.#database = options.database;
    this.#eventLog = options.eventLog;
  }

  get #db(): Kysely<Schema> {
    return this.#database.db;
  }

  async append(sessionId: string, records: readonly SessionRecord[]): Promise<void> {
    if (records.length === 0) return;
    const conversationId =
      (await this.#conversationOf(sessionId)) ?? (await this.#createStandalone(sessionId));
    // The conversation's writer: deltas the run queued before these records commit first.
    await this.#eventLog.writer(conversationId).append(
      records.map((record) => ({ run_id: sessionId, type: 'session.record', payload: { record } })),
      (transaction) => this.#summarize(transaction, sessionId, conversationId, records),
    );
  }

  async load(sessionId: string): Promise<readonly SessionRecord[] | undefined> {
    const conversationId = await this.#conversationOf(sessionId);
    if (conversationId === undefined) return undefined;
    const result = await sql<{ payload: string }>`with recursive path(id, previous_run_id) as (
        select id, previous_run_id from runs where id = ${sessionId}
        union all
        select runs.id, runs.previous_run_id from runs join path on runs.id = path.previous_run_id
      )
      select payload from events
      where conversation_id = ${conversationId} and type = 'session.record'
        and run_id in (select id from path)
      order by seq`.execute(this.#db);
    if (result.rows.length === 0) return undefined;
    return result.rows.map((row) => (JSON.parse(row.payload) as { record: SessionRecord }).record);
  }

  /**
   * True when `load(sessionId)` would return records: this run or one before it on its branch
   * stored some. Cheaper than loading them.
   */
  async hasHistory(sessionId: string): Promise<boolean> {
    const result = await sql<{ found: number }>`with recursive path(id, previous_run_id) as (
        select id, previous_run_id from runs where id = ${sessionId}
        union all
        select runs.id, runs.previous_run_id from runs join path on runs.id = path.previous_run_id
      )
      select 1 as found from agent_sessions where id in (select id from path) limit 1`.execute(this.#db);
    return result.rows.length > 0;
  }

  async list(options: { cursor?: string; limit?: number } = {}): Promise<SessionPage> {
    const limit = Math.max(1, Math.floor(options.limit ?? DEFAULT_PAGE));
    let query = this.#db.selectFrom('agent_sessions').selectAll();
    if (options.cursor !== undefined) {
      const cursor = decodeCursor(options.cursor);
      query = query.where((expression) =>
        expression.or([
          expression('updated_at', '<', cursor.at),
          expression.and([expression('updated_at', '=', cursor.at), expression('id', '<', cursor.id)]),
        ]),
      );
    }
    const rows = await query
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .execute();
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return rows.length > limit && last !== undefined
      ? { sessions: page.map(summaryOf), nextCursor: encodeCursor({ at: last.updated_at, id: last.id }) }
      : { sessions: page.map(summaryOf) };
  }

  async find(query: string): Promise<readonly SessionSummary[]> {
    const rows = await this.#db
      .selectFrom('agent_sessions')
      .selectAll()
      .where((expression) =>
        expression.or([
          expression(sql`substr(id, 1, ${query.length})`, '=', query),
          expression(sql`lower(title)`, 'like', sql<string>`${likePattern(query.toLowerCase())} escape '\\'`),
        ]),
      )
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(summaryOf);
  }

  async delete(sessionId: string): Promise<void> {
    const conversationId = await this.#conversationOf(sessionId);
    if (conversationId === undefined) return;
    await this.#db.transaction().execute(async (transaction) => {
      await transaction
        .deleteFrom('events')
        .where('conversation_id', '=', conversationId)
        .where('run_id', '=', sessionId)
        .where('type', '=', 'session.record')
        .execute();
      await transaction.deleteFrom('agent_sessions').where('id', '=', sessionId).execute();
      const run = await transaction
        .selectFrom('runs')
        .select('kind')
        .where('id', '=', sessionId)
        .executeTakeFirst();
      if (run?.kind !== 'session') return;
      // A session this storage created on its own goes away whole.
      await transaction.deleteFrom('runs').where('id', '=', sessionId).execute();
      const others = await transaction
        .selectFrom('runs')
        .select('id')
        .where('conversation_id', '=', conversationId)
        .executeTakeFirst();
      if (others === undefined)
        await transaction.deleteFrom('conversations').where('id', '=', conversationId).execute();
    });
    this.#conversations.delete(sessionId);
  }

  async #conversationOf(sessionId: string): Promise<string | undefined> {
    const cached = this.#conversations.get(sessionId);
    if (cached !== undefined) return cached;
    const row = await this.#db
      .selectFrom('runs')
      .select('conversation_id')
      .where('id', '=', sessionId)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    if (this.#conversations.size >= RUN_CACHE_SIZE) this.#conversations.clear();
    this.#conversations.set(sessionId, row.conversation_id);
    return row.conversation_id;
  }

  /** A session the workbench did not start: a conversation with one run of kind `session`. */
  async #createStandalone(sessionId: string): Promise<string> {
    const now = Date.now();
    const conversationId = randomUUID();
    try {
      await this.#db.transaction().execute(async (transaction) => {
        await transaction
          .insertInto('conversations')
          .values({
            id: conversationId,
            owner: null,
            project_id: null,
            title: '',
            title_source: 'none',
            model_id: null,
            active_run_id: sessionId,
            last_seq: 0,
            read_seq: 0,
            created_at: now,
            updated_at: now,
          })
          .execute();
        await transaction
          .insertInto('runs')
          .values({
            id: sessionId,
            owner: null,
            conversation_id: conversationId,
            project_id: null,
            parent_run_id: null,
            previous_run_id: null,
            user_message_id: null,
            kind: 'session',
            profile_id: null,
            model_id: null,
            status: 'completed',
            phase: 'done',
            error: null,
            usage: null,
            instance_id: null,
            cancel_requested: 0,
            created_at: now,
            started_at: now,
            ended_at: now,
          })
          .execute();
      });
    } catch (error) {
      // Two first appends raced: the other one created it.
      if (!isUniqueViolation(error)) throw error;
    }
    const existing = await this.#conversationOf(sessionId);
    if (existing === undefined) throw new Error(`Session ${sessionId} could not be created.`);
    return existing;
  }

  async #summarize(
    transaction: Transaction<Schema>,
    sessionId: string,
    conversationId: string,
    records: readonly SessionRecord[],
  ): Promise<void> {
    const existing = await transaction
      .selectFrom('agent_sessions')
      .selectAll()
      .where('id', '=', sessionId)
      .executeTakeFirst();
    if (existing !== undefined) {
      const next = fold(existing, records);
      await transaction
        .updateTable('agent_sessions')
        .set({
          title: next.title,
          created_at: next.created_at,
          updated_at: next.updated_at,
          message_count: next.message_count,
        })
        .where('id', '=', sessionId)
        .execute();
      return;
    }
    const inherited = await this.#inheritedSummary(transaction, sessionId);
    const base: SessionRow = inherited ?? {
      id: sessionId,
      conversation_id: conversationId,
      title: '',
      created_at: 0,
      updated_at: 0,
      message_count: 0,
    };
    await transaction
      .insertInto('agent_sessions')
      .values(fold({ ...base, id: sessionId, conversation_id: conversationId }, records))
      .execute();
  }

  /** The summary of the nearest earlier run on the branch that has one: a branch starts from it. */
  async #inheritedSummary(
    transaction: Transaction<Schema>,
    sessionId: string,
  ): Promise<SessionRow | undefined> {
    const result = await sql<SessionRow>`with recursive path(id, previous_run_id, depth) as (
        select id, previous_run_id, 0 from runs where id = ${sessionId}
        union all
        select runs.id, runs.previous_run_id, path.depth + 1 from runs join path on runs.id = path.previous_run_id
      )
      select agent_sessions.* from agent_sessions join path on agent_sessions.id = path.id
      where path.depth > 0 order by path.depth limit 1`.execute(transaction);
    return result.rows[0];
  }
}
