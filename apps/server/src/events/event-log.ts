import { sql, type Transaction } from 'kysely';
import type { Schema, WorkbenchDatabase } from '../database/index.ts';
import { ConversationWriter, type ApplyInTransaction } from './conversation-writer.ts';
import type { EventHub } from './event-hub.ts';
import { insertEvents, notifyEvents, readEvents, type ReadEventsOptions } from './event-store.ts';
import type { NewEvent, WorkbenchEvent } from '@youyou/contracts';

export interface EventLogOptions {
  database: WorkbenchDatabase;
  hub: EventHub;
  /** This server's id, so it can ignore its own notifications. */
  instanceId: string;
  deltaIntervalMs?: number;
  onDeltaFailure?: (conversationId: string, error: unknown) => void;
}

/** Inserts events inside an open transaction; they are published once it commits. */
export type InsertEvents = (events: readonly NewEvent[]) => Promise<WorkbenchEvent[]>;

interface WriterEntry {
  writer: ConversationWriter;
  holders: number;
}

/**
 * The workbench's event log: every conversation's events, numbered per conversation, persisted
 * first and then pushed to subscribers (this process through the hub, other processes through
 * NOTIFY on PostgreSQL).
 *
 * @example
 * const writer = log.retain(conversationId);
 * writer.delta(runId, 'message.delta', runId, 'Hi');
 * await writer.append([{ run_id: runId, type: 'run.completed', payload }]);
 * log.release(conversationId);
 */
export class EventLog {
  readonly #database: WorkbenchDatabase;
  readonly #hub: EventHub;
  readonly #instanceId: string;
  readonly #deltaIntervalMs: number | undefined;
  readonly #onDeltaFailure: (conversationId: string, error: unknown) => void;
  readonly #writers = new Map<string, WriterEntry>();

  constructor(options: EventLogOptions) {
    this.#database = options.database;
    this.#hub = options.hub;
    this.#instanceId = options.instanceId;
    this.#deltaIntervalMs = options.deltaIntervalMs;
    this.#onDeltaFailure = options.onDeltaFailure ?? (() => {});
  }

  get hub(): EventHub {
    return this.#hub;
  }

  /**
   * Runs `work` in one transaction; events it inserts are numbered there and published after
   * the commit. Rolled back as a whole when `work` throws.
   */
  async transact<T>(
    conversationId: string,
    work: (transaction: Transaction<Schema>, insert: InsertEvents) => Promise<T>,
  ): Promise<T> {
    const inserted: WorkbenchEvent[] = [];
    const result = await this.#database.db.transaction().execute(async (transaction) => {
      // The event log is as durable as on SQLite (WAL, synchronous = normal): a commit survives the
      // workbench process dying at any point; only a crash of the database server or the machine
      // can lose the last moments. Waiting for the WAL flush on every batch cost a disk sync
      // (4–20 ms here) on the path of every event a client waits for (decision 0018).
      if (this.#database.dialect === 'postgres')
        await sql`set local synchronous_commit = off`.execute(transaction);
      const value = await work(transaction, async (events) => {
        if (events.length === 0) return [];
        const numbered = await insertEvents(transaction, conversationId, events, Date.now());
        inserted.push(...numbered);
        return numbered;
      });
      const last = inserted.at(-1);
      if (last !== undefined && this.#database.dialect === 'postgres') {
        await notifyEvents(transaction, {
          instance: this.#instanceId,
          conversation: conversationId,
          seq: last.seq,
        });
      }
      return value;
    });
    this.#hub.publish(conversationId, inserted);
    return result;
  }

  /** Appends events on their own, in one transaction. */
  append(conversationId: string, events: readonly NewEvent[]): Promise<WorkbenchEvent[]> {
    return this.transact(conversationId, (_trx, insert) => insert(events));
  }

  /** The conversation's ordered writer, kept until every holder releases it. */
  retain(conversationId: string): ConversationWriter {
    const entry = this.#entry(conversationId);
    entry.holders++;
    return entry.writer;
  }

  release(conversationId: string): void {
    const entry = this.#writers.get(conversationId);
    if (entry === undefined) return;
    entry.holders = Math.max(0, entry.holders - 1);
    if (entry.holders === 0) void entry.writer.flushed().then(() => this.#prune(conversationId, entry));
  }

  /** The writer for a short piece of work without a holder (it is dropped once idle). */
  writer(conversationId: string): ConversationWriter {
    return this.#entry(conversationId).writer;
  }

  /** Waits until every writer has committed what it holds. */
  async flushAll(): Promise<void> {
    await Promise.all([...this.#writers.values()].map((entry) => entry.writer.flushed()));
  }

  read(conversationId: string, options: ReadEventsOptions): Promise<WorkbenchEvent[]> {
    return readEvents(this.#database.db, conversationId, options);
  }

  #entry(conversationId: string): WriterEntry {
    let entry = this.#writers.get(conversationId);
    if (entry === undefined) {
      const created: WriterEntry = {
        holders: 0,
        writer: new ConversationWriter({
          commit: (events, applies) => this.#commit(conversationId, events, applies),
          ...(this.#deltaIntervalMs === undefined ? {} : { deltaIntervalMs: this.#deltaIntervalMs }),
          onDeltaFailure: (error) => this.#onDeltaFailure(conversationId, error),
        }),
      };
      entry = created;
      this.#writers.set(conversationId, created);
      // A writer nobody holds goes away once it has written what it was given.
      queueMicrotask(() => void created.writer.flushed().then(() => this.#prune(conversationId, created)));
    }
    return entry;
  }

  #prune(conversationId: string, entry: WriterEntry): void {
    if (entry.holders === 0 && entry.writer.idle && this.#writers.get(conversationId) === entry) {
      this.#writers.delete(conversationId);
    }
  }

  #commit(
    conversationId: string,
    events: readonly NewEvent[],
    applies: readonly ApplyInTransaction[],
  ): Promise<WorkbenchEvent[]> {
    return this.transact(conversationId, async (transaction, insert) => {
      const numbered = await insert(events);
      for (const apply of applies) await apply(transaction);
      return numbered;
    });
  }
}
