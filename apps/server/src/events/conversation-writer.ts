import type { Transaction } from 'kysely';
import type { Schema } from '../database/index.ts';
import type { NewEvent, WorkbenchEvent } from '@youyou/contracts';

/** Work done in the same transaction as the events it goes with (a run's status, say). */
export type ApplyInTransaction = (transaction: Transaction<Schema>) => Promise<void>;

/** Commits a batch in one transaction and returns the numbered events. */
export type CommitBatch = (
  events: readonly NewEvent[],
  applies: readonly ApplyInTransaction[],
) => Promise<WorkbenchEvent[]>;

interface PendingDelta {
  kind: 'delta';
  event: NewEvent & { type: 'message.delta' | 'thinking.delta' };
  pieces: string[];
}

interface PendingAppend {
  kind: 'append';
  events: readonly NewEvent[];
  apply?: ApplyInTransaction;
  resolve(events: WorkbenchEvent[]): void;
  reject(error: unknown): void;
}

type Pending = PendingDelta | PendingAppend;

export interface ConversationWriterOptions {
  commit: CommitBatch;
  /** How long deltas wait to be batched with the next ones; default 8 ms. */
  deltaIntervalMs?: number;
  /** Called when a batch of deltas could not be stored. */
  onDeltaFailure?: (error: unknown) => void;
}

/**
 * Writes one conversation's events in order. A message's first delta commits at once; later text
 * and thinking deltas are merged and committed a few milliseconds apart (one transaction per flush, never one per delta); other events commit at
 * once, together with any deltas before them, so the log keeps the order the agent produced.
 *
 * @example
 * writer.delta(runId, 'message.delta', messageId, 'Hel');
 * writer.delta(runId, 'message.delta', messageId, 'lo');
 * await writer.append([{ run_id: runId, type: 'run.completed', payload }]); // one delta "Hello", then this
 */
export class ConversationWriter {
  readonly #commit: CommitBatch;
  readonly #interval: number;
  readonly #onDeltaFailure: (error: unknown) => void;
  #pending: Pending[] = [];
  #backlog = 0;
  #urgent = false;
  /** The message the last delta belonged to: a message's first delta is not held back. */
  #streamingMessage: string | undefined;
  #timer: { timeout: NodeJS.Timeout } | { immediate: NodeJS.Immediate } | undefined;
  #flushing: Promise<void> | undefined;
  #idle: { promise: Promise<void>; resolve: () => void } | undefined;

  constructor(options: ConversationWriterOptions) {
    this.#commit = options.commit;
    this.#interval = options.deltaIntervalMs ?? 8;
    this.#onDeltaFailure = options.onDeltaFailure ?? (() => {});
  }

  /** Characters of deltas not yet committed; a producer far ahead of the database waits on `flushed()`. */
  get backlog(): number {
    return this.#backlog;
  }

  /** True while nothing is pending or being written. */
  get idle(): boolean {
    return this.#pending.length === 0 && this.#flushing === undefined;
  }

  /** Queues a text or thinking delta; consecutive deltas of one message become one event. */
  delta(runId: string, type: 'message.delta' | 'thinking.delta', messageId: string, text: string): void {
    const last = this.#pending.at(-1);
    if (
      last?.kind === 'delta' &&
      last.event.type === type &&
      last.event.run_id === runId &&
      last.event.payload.message_id === messageId
    ) {
      last.pieces.push(text);
    } else {
      this.#pending.push({
        kind: 'delta',
        event: { run_id: runId, type, payload: { message_id: messageId, text: '' } },
        pieces: [text],
      });
    }
    this.#backlog += text.length;
    // The first delta of a message commits at once (the client's time to first token); the rest
    // gather for the interval so a fast stream still costs one transaction per flush.
    const first = this.#streamingMessage !== messageId;
    this.#streamingMessage = messageId;
    this.#kick(first);
  }

  /** Commits `events` (after every delta queued before them), with `apply` in the same transaction. */
  append(events: readonly NewEvent[], apply?: ApplyInTransaction): Promise<WorkbenchEvent[]> {
    return new Promise((resolve, reject) => {
      this.#pending.push({
        kind: 'append',
        events,
        ...(apply === undefined ? {} : { apply }),
        resolve,
        reject,
      });
      this.#kick(true);
    });
  }

  /** Resolves when everything queued so far is committed (or failed). */
  flushed(): Promise<void> {
    if (this.idle) return Promise.resolve();
    this.#kick(true);
    if (this.#idle === undefined) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      this.#idle = { promise, resolve };
    }
    return this.#idle.promise;
  }

  #kick(urgent: boolean): void {
    if (urgent) this.#urgent = true;
    if (this.#flushing !== undefined) return;
    if (this.#timer !== undefined) {
      if (!urgent) return;
      this.#clearTimer();
    }
    this.#timer = this.#urgent
      ? { immediate: setImmediate(() => this.#start()) }
      : { timeout: setTimeout(() => this.#start(), this.#interval) };
  }

  #clearTimer(): void {
    const timer = this.#timer;
    this.#timer = undefined;
    if (timer === undefined) return;
    if ('timeout' in timer) clearTimeout(timer.timeout);
    else clearImmediate(timer.immediate);
  }

  #start(): void {
    this.#timer = undefined;
    this.#flushing = this.#drain().finally(() => {
      this.#flushing = undefined;
      if (this.#pending.length > 0) this.#kick(this.#urgent);
      else {
        const idle = this.#idle;
        this.#idle = undefined;
        idle?.resolve();
      }
    });
  }

  async #drain(): Promise<void> {
    const batch = this.#pending;
    this.#pending = [];
    this.#backlog = 0;
    this.#urgent = false;
    const events: NewEvent[] = [];
    const applies: ApplyInTransaction[] = [];
    const owners: { item: PendingAppend; start: number; count: number }[] = [];
    for (const item of batch) {
      if (item.kind === 'delta') {
        item.event.payload.text = item.pieces.join('');
        events.push(item.event);
        continue;
      }
      owners.push({ item, start: events.length, count: item.events.length });
      events.push(...item.events);
      if (item.apply !== undefined) applies.push(item.apply);
    }
    try {
      const committed = await this.#commit(events, applies);
      for (const { item, start, count } of owners) item.resolve(committed.slice(start, start + count));
    } catch (error) {
      for (const { item } of owners) item.reject(error);
      if (owners.length < batch.length) this.#onDeltaFailure(error);
    }
  }
}
