import type { Kysely } from 'kysely';
import type { Schema } from '../database/index.ts';
import { ApiError } from '../errors/index.ts';
import { readEvents, type RunDescription } from '../events/index.ts';
import { applyRunEvent, type ConversationMessage, type RunProjection } from '@youyou/contracts';
import {
  ConversationRepository,
  conversationOfRow,
  RunRepository,
  runViewOfRow,
  type ConversationSummary,
  type RunView,
  type TreeRun,
} from '../storage/index.ts';
import { ConversationTree } from './conversation-tree.ts';

export const DEFAULT_MESSAGE_PAGE = 100;
export const MAX_MESSAGE_PAGE = 1000;

/** The conversation Query (spec §4.2): the authority clients reconcile to. */
export interface ConversationView {
  conversation: ConversationSummary;
  /** The active branch (or the page of it asked for), oldest first, each with its alternatives. */
  messages: ConversationMessage[];
  /** The runs of those messages, in order. */
  runs: RunDescription[];
  /** Messages on the whole active branch. */
  branch_length: number;
  /** Pass as `before` to get the messages before this page; absent on the first page. */
  earlier_cursor?: string;
  /** The run in flight, if any. */
  in_flight_run: RunView | null;
  /** Every event up to this seq is reflected here: stream from it with `Last-Event-ID`. */
  last_seq: number;
}

export interface ConversationQueryOptions {
  limit?: number;
  /** A message id: return the messages before it. */
  before?: string;
}

function pageOf(path: readonly TreeRun[], options: ConversationQueryOptions): TreeRun[] {
  const runsWanted = Math.max(
    1,
    Math.ceil(Math.min(options.limit ?? DEFAULT_MESSAGE_PAGE, MAX_MESSAGE_PAGE) / 2),
  );
  let end = path.length;
  if (options.before !== undefined) {
    const index = path.findIndex(
      (run) => run.id === options.before || run.user_message_id === options.before,
    );
    if (index < 0) {
      throw new ApiError('INVALID_INPUT', `Message '${options.before}' is not on the active branch.`, {
        details: { before: options.before },
      });
    }
    end = index;
  }
  return path.slice(Math.max(0, end - runsWanted), end);
}

/**
 * Reads the conversation as of one snapshot: the row, the tree, and the events of the page's
 * runs up to the row's `last_seq`, projected exactly as a client applies the same events.
 *
 * @example
 * const view = await queryConversation(database.db, conversationId, { limit: 50 });
 */
export async function queryConversation(
  db: Kysely<Schema>,
  dialect: 'sqlite' | 'postgres',
  conversationId: string,
  options: ConversationQueryOptions = {},
): Promise<ConversationView> {
  const read = async (transaction: Kysely<Schema>): Promise<ConversationView> => {
    const conversations = new ConversationRepository(transaction, dialect);
    const runs = new RunRepository(transaction);
    const row = await conversations.get(conversationId, transaction);
    const tree = new ConversationTree(await runs.tree(conversationId, transaction));
    const path = tree.path(row.active_run_id);
    const page = pageOf(path, options);
    const events = await readEvents(transaction, conversationId, {
      afterSeq: 0,
      throughSeq: row.last_seq,
      runIds: page.map((run) => run.id),
    });
    const projections = new Map<string, RunProjection>();
    for (const event of events) {
      const runId = event.type === 'run.created' ? event.payload.run.id : event.run_id;
      if (runId === null) continue;
      const next = applyRunEvent(projections.get(runId), event);
      if (next !== undefined) projections.set(runId, next);
    }
    const messages: ConversationMessage[] = [];
    const described: RunDescription[] = [];
    for (const run of page) {
      const projection = projections.get(run.id);
      if (projection === undefined) continue;
      described.push(projection.run);
      messages.push(
        { ...projection.user, siblings: tree.userSiblings(run) },
        { ...projection.assistant, siblings: tree.assistantSiblings(run) },
      );
    }
    const inFlight = await runs.inFlight(conversationId, transaction);
    const first = page[0];
    return {
      conversation: conversationOfRow(row),
      messages,
      runs: described,
      branch_length: path.length * 2,
      ...(first !== undefined && first !== path[0]
        ? { earlier_cursor: first.user_message_id ?? first.id }
        : {}),
      in_flight_run: inFlight === undefined ? null : runViewOfRow(inFlight),
      last_seq: row.last_seq,
    };
  };
  // One snapshot: on PostgreSQL a repeatable-read transaction; on SQLite the single connection.
  return dialect === 'postgres'
    ? db.transaction().setIsolationLevel('repeatable read').execute(read)
    : db.transaction().execute(read);
}
