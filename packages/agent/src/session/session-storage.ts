import type { SessionRecord } from './session-record.ts';

export interface SessionSummary {
  sessionId: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  /** User and assistant messages. */
  messageCount: number;
}

export interface SessionPage {
  sessions: readonly SessionSummary[];
  /** Pass back as `cursor` for the next page; absent on the last page. */
  nextCursor?: string;
}

/**
 * Where sessions live (spec §3.7). Throwing from any method is reported as STORAGE_ERROR.
 * The in-memory reference is `InMemorySessionStorage`; the JSONL and workbench storages follow the
 * same contract.
 */
export interface SessionStorage {
  /** Appends records in order; `records` is never empty. */
  append(sessionId: string, records: readonly SessionRecord[]): Promise<void>;
  /** The whole session in append order, or `undefined` when it does not exist. */
  load(sessionId: string): Promise<readonly SessionRecord[] | undefined>;
  /** Newest first (by `updatedAt`). */
  list(options?: { cursor?: string; limit?: number }): Promise<SessionPage>;
  /** Sessions whose id starts with `query` or whose title contains it (case-insensitive). */
  find(query: string): Promise<readonly SessionSummary[]>;
  delete(sessionId: string): Promise<void>;
}
