import { sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
import type { ConversationsTable, DialectName, Schema } from '../database/index.ts';
import { notFound } from '../errors/index.ts';
import { decodeCursor, encodeCursor, likePattern } from './page-cursor.ts';

/** A conversation row, with the run in flight when the query asked for it. */
export type ConversationRow = Selectable<ConversationsTable> & {
  in_flight_run_id?: string | null;
  waiting_card_id?: string | null;
};

/** A conversation as listings show it. */
export interface ConversationSummary {
  id: string;
  project_id: string | null;
  title: string;
  title_source: 'none' | 'auto' | 'user';
  model_id: string | null;
  /** The agent profile its runs use (the built-in default when null). */
  profile_id: string | null;
  active_run_id: string | null;
  /** The top-level run in flight, if any. */
  in_flight_run_id: string | null;
  last_seq: number;
  /** How far the user has read: events after it are unread. */
  read_seq: number;
  /** A HITL card waits for the user's answer (the left column marks it). */
  waiting_for_user: boolean;
  created_at: string;
  updated_at: string;
}

export function conversationOfRow(row: ConversationRow): ConversationSummary {
  return {
    id: row.id,
    project_id: row.project_id,
    title: row.title,
    title_source: row.title_source,
    model_id: row.model_id,
    profile_id: row.profile_id ?? null,
    active_run_id: row.active_run_id,
    in_flight_run_id: row.in_flight_run_id ?? null,
    last_seq: row.last_seq,
    read_seq: row.read_seq,
    waiting_for_user: row.waiting_card_id !== undefined && row.waiting_card_id !== null,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

export interface ConversationListOptions {
  projectId?: string;
  /** Title search: a case-insensitive substring (FTS5 trigram on SQLite, pg_trgm on PostgreSQL). */
  query?: string;
  cursor?: string;
  limit: number;
}

/** The id of the conversation's top-level run in flight (the partial unique index finds it). */
function inFlightRun(expression: ExpressionBuilder<Schema, 'conversations'>) {
  return expression
    .selectFrom('runs')
    .select('runs.id')
    .whereRef('runs.conversation_id', '=', 'conversations.id')
    .where('runs.parent_run_id', 'is', null)
    .where('runs.status', 'in', ['pending', 'running', 'waiting_hitl'])
    .limit(1)
    .as('in_flight_run_id');
}

/** A card of the conversation that waits for the user, if any. */
function waitingCard(expression: ExpressionBuilder<Schema, 'conversations'>) {
  return expression
    .selectFrom('hitl_cards')
    .select('hitl_cards.id')
    .whereRef('hitl_cards.conversation_id', '=', 'conversations.id')
    .where('hitl_cards.status', '=', 'pending')
    .limit(1)
    .as('waiting_card_id');
}

/**
 * Conversations: listing newest first with keyset pages, title search, create, rename, delete.
 *
 * @example
 * const { conversations, nextCursor } = await repository.list({ query: 'parser', limit: 20 });
 */
export class ConversationRepository {
  readonly #db: Kysely<Schema>;
  readonly #dialect: DialectName;

  constructor(db: Kysely<Schema>, dialect: DialectName) {
    this.#db = db;
    this.#dialect = dialect;
  }

  async find(id: string, db: Kysely<Schema> = this.#db): Promise<ConversationRow | undefined> {
    return db
      .selectFrom('conversations')
      .selectAll('conversations')
      .select(inFlightRun)
      .select(waitingCard)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async get(id: string, db: Kysely<Schema> = this.#db): Promise<ConversationRow> {
    const row = await this.find(id, db);
    if (row === undefined) throw notFound('conversation', id);
    return row;
  }

  async list(options: ConversationListOptions): Promise<{ rows: ConversationRow[]; nextCursor?: string }> {
    let query = this.#db
      .selectFrom('conversations')
      .selectAll('conversations')
      .select(inFlightRun)
      .select(waitingCard);
    if (options.projectId !== undefined) query = query.where('project_id', '=', options.projectId);
    const search = options.query?.trim();
    if (search !== undefined && search !== '') {
      const pattern = likePattern(search);
      query =
        this.#dialect === 'sqlite'
          ? query.where(
              'id',
              'in',
              sql<string>`(select conversation_id from conversation_titles where title like ${pattern} escape '\\')`,
            )
          : query.where(sql<boolean>`title ilike ${pattern} escape '\\'`);
    }
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
      .limit(options.limit + 1)
      .execute();
    if (rows.length <= options.limit) return { rows };
    const page = rows.slice(0, options.limit);
    const last = page.at(-1) as ConversationRow;
    return { rows: page, nextCursor: encodeCursor({ at: last.updated_at, id: last.id }) };
  }

  async create(
    values: {
      id: string;
      projectId: string | null;
      title: string;
      modelId: string | null;
      profileId?: string | null;
      now: number;
    },
    db: Kysely<Schema> = this.#db,
  ): Promise<ConversationRow> {
    const row: ConversationRow = {
      id: values.id,
      owner: null,
      project_id: values.projectId,
      title: values.title,
      title_source: values.title === '' ? 'none' : 'user',
      model_id: values.modelId,
      active_run_id: null,
      last_seq: 0,
      read_seq: 0,
      profile_id: values.profileId ?? null,
      created_at: values.now,
      updated_at: values.now,
    };
    await db.insertInto('conversations').values(row).execute();
    return row;
  }

  async update(
    id: string,
    changes: Partial<
      Pick<
        ConversationRow,
        'title' | 'title_source' | 'model_id' | 'project_id' | 'active_run_id' | 'profile_id'
      >
    >,
    now: number,
    db: Kysely<Schema> = this.#db,
  ): Promise<void> {
    const result = await db
      .updateTable('conversations')
      .set({ ...changes, updated_at: now })
      .where('id', '=', id)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw notFound('conversation', id);
  }

  async delete(id: string): Promise<void> {
    const result = await this.#db.deleteFrom('conversations').where('id', '=', id).executeTakeFirst();
    if (result.numDeletedRows === 0n) throw notFound('conversation', id);
  }
}
