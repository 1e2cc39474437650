import { sql, type Kysely, type Transaction } from 'kysely';
import type { Schema, WorkbenchDatabase } from '../database/index.ts';
import { notFound } from '../errors/index.ts';
import {
  EVENT_VERSION,
  INTERNAL_EVENT_TYPES,
  type NewEvent,
  type WorkbenchEvent,
  type WorkbenchEventType,
} from '@youyou/contracts';

/** The PostgreSQL channel every server LISTENs on for committed events. */
export const EVENTS_CHANNEL = 'youyou_events';

/** Rows per INSERT statement, well under both engines' parameter limits. */
const ROWS_PER_INSERT = 400;

/** What the events channel carries: who committed, which conversation, up to which seq. */
export interface EventsNotification {
  instance: string;
  conversation: string;
  seq: number;
}

interface EventRow {
  conversation_id: string;
  seq: number;
  run_id: string | null;
  ts: number;
  v: number;
  type: string;
  payload: string;
}

/** A stored row as an envelope. */
export function eventOfRow(row: EventRow): WorkbenchEvent {
  return {
    seq: row.seq,
    run_id: row.run_id,
    conversation_id: row.conversation_id,
    ts: new Date(row.ts).toISOString(),
    v: row.v,
    type: row.type as WorkbenchEventType,
    payload: JSON.parse(row.payload) as never,
  } as WorkbenchEvent;
}

/**
 * Numbers and inserts events inside `transaction`. The seq comes from the conversation row, which the
 * UPDATE locks until commit: on PostgreSQL a later writer waits, so events of one conversation
 * always commit in seq order and a reader that saw seq N never misses an N−1 committed later.
 */
export async function insertEvents(
  transaction: Transaction<Schema>,
  conversationId: string,
  events: readonly NewEvent[],
  now: number,
): Promise<WorkbenchEvent[]> {
  const count = events.length;
  const row = await transaction
    .updateTable('conversations')
    .set((expression) => ({ last_seq: expression('last_seq', '+', count) }))
    .where('id', '=', conversationId)
    .returning('last_seq')
    .executeTakeFirst();
  if (row === undefined) throw notFound('conversation', conversationId);
  const firstSeq = row.last_seq - count + 1;
  const ts = new Date(now).toISOString();
  const rows: EventRow[] = [];
  const envelopes: WorkbenchEvent[] = [];
  events.forEach((event, index) => {
    const seq = firstSeq + index;
    rows.push({
      conversation_id: conversationId,
      seq,
      run_id: event.run_id,
      ts: now,
      v: EVENT_VERSION,
      type: event.type,
      payload: JSON.stringify(event.payload),
    });
    envelopes.push({
      seq,
      run_id: event.run_id,
      conversation_id: conversationId,
      ts,
      v: EVENT_VERSION,
      type: event.type,
      payload: event.payload,
    } as WorkbenchEvent);
  });
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    await transaction
      .insertInto('events')
      .values(rows.slice(start, start + ROWS_PER_INSERT))
      .execute();
  }
  return envelopes;
}

/** Tells the other servers (PostgreSQL) that events were committed; delivered at commit. */
export async function notifyEvents(
  transaction: Transaction<Schema>,
  notification: EventsNotification,
): Promise<void> {
  await sql`select pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify(notification)})`.execute(transaction);
}

export interface ReadEventsOptions {
  afterSeq: number;
  /** Default: no limit. */
  limit?: number;
  /** Only events up to this seq (a consistent snapshot). */
  throughSeq?: number;
  /** Include internal events (session records); default false. */
  internal?: boolean;
  runIds?: readonly string[];
}

/**
 * Events of a conversation after a seq, oldest first.
 *
 * @example
 * const page = await readEvents(database.db, conversationId, { afterSeq: 0, limit: 500 });
 */
export async function readEvents(
  db: Kysely<Schema>,
  conversationId: string,
  options: ReadEventsOptions,
): Promise<WorkbenchEvent[]> {
  let query = db
    .selectFrom('events')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .where('seq', '>', options.afterSeq);
  if (options.throughSeq !== undefined) query = query.where('seq', '<=', options.throughSeq);
  if (options.internal !== true) query = query.where('type', 'not in', [...INTERNAL_EVENT_TYPES]);
  if (options.runIds !== undefined) {
    if (options.runIds.length === 0) return [];
    query = query.where('run_id', 'in', [...options.runIds]);
  }
  const ordered = query.orderBy('seq');
  const rows = await (options.limit === undefined ? ordered : ordered.limit(options.limit)).execute();
  return rows.map(eventOfRow);
}

/** The last seq of a conversation, or undefined when it does not exist. */
export async function lastSeqOf(
  database: WorkbenchDatabase,
  conversationId: string,
): Promise<number | undefined> {
  const row = await database.db
    .selectFrom('conversations')
    .select('last_seq')
    .where('id', '=', conversationId)
    .executeTakeFirst();
  return row?.last_seq;
}
