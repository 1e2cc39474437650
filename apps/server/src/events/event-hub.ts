import { INTERNAL_EVENT_TYPES, type WorkbenchEvent } from '@youyou/contracts';

/** How many recent events per watched conversation are kept for subscribers that lag a little. */
const RECENT_EVENTS = 1024;

type Listener = (lastSeq: number) => void;

interface RecentEvents {
  /** The seq of `entries[0]`; entries are consecutive from there. */
  firstSeq: number;
  /** `undefined` stands for an internal event: it holds a seq but is never streamed. */
  entries: (WorkbenchEvent | undefined)[];
}

/**
 * Tells subscribers that a conversation's log grew, and keeps its most recent events so a
 * subscriber that is up to date reads them from memory instead of the database. Events committed
 * here arrive through `publish`; events another server committed arrive as `wake` (LISTEN/NOTIFY)
 * and are read from the database.
 *
 * @example
 * const stop = hub.subscribe(conversationId, (lastSeq) => wakeReader(lastSeq));
 * hub.publish(conversationId, committedEvents);
 * stop();
 */
export class EventHub {
  readonly #listeners = new Map<string, Set<Listener>>();
  readonly #recent = new Map<string, RecentEvents>();

  /** Events this process committed, in seq order. */
  publish(conversationId: string, events: readonly WorkbenchEvent[]): void {
    const last = events.at(-1);
    if (last === undefined) return;
    const listeners = this.#listeners.get(conversationId);
    if (listeners === undefined) return;
    this.#remember(conversationId, events);
    for (const listener of listeners) listener(last.seq);
  }

  /** Another process committed events up to `lastSeq`. */
  wake(conversationId: string, lastSeq: number): void {
    const listeners = this.#listeners.get(conversationId);
    if (listeners === undefined) return;
    for (const listener of listeners) listener(lastSeq);
  }

  /** Calls `listener` with the newest seq whenever the conversation's log grows. */
  subscribe(conversationId: string, listener: Listener): () => void {
    let listeners = this.#listeners.get(conversationId);
    if (listeners === undefined) {
      listeners = new Set();
      this.#listeners.set(conversationId, listeners);
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.#listeners.get(conversationId) === listeners) {
        this.#listeners.delete(conversationId);
        this.#recent.delete(conversationId);
      }
    };
  }

  /**
   * The streamable events after `afterSeq` when memory holds every event from `afterSeq + 1` on;
   * `undefined` when the caller must read the database.
   */
  since(conversationId: string, afterSeq: number, limit: number): WorkbenchEvent[] | undefined {
    const recent = this.#recent.get(conversationId);
    if (recent === undefined || afterSeq + 1 < recent.firstSeq) return undefined;
    const result: WorkbenchEvent[] = [];
    for (let index = afterSeq + 1 - recent.firstSeq; index < recent.entries.length; index++) {
      const event = recent.entries[index];
      if (event !== undefined) result.push(event);
      if (result.length >= limit) break;
    }
    return result;
  }

  /** Conversations somebody is watching. */
  get watched(): number {
    return this.#listeners.size;
  }

  #remember(conversationId: string, events: readonly WorkbenchEvent[]): void {
    const first = events[0];
    if (first === undefined) return;
    let recent = this.#recent.get(conversationId);
    // A gap (another server wrote in between) starts the memory afresh.
    if (recent === undefined || recent.firstSeq + recent.entries.length !== first.seq) {
      recent = { firstSeq: first.seq, entries: [] };
      this.#recent.set(conversationId, recent);
    }
    for (const event of events) {
      recent.entries.push(INTERNAL_EVENT_TYPES.has(event.type) ? undefined : event);
    }
    const excess = recent.entries.length - RECENT_EVENTS;
    if (excess > 0) {
      recent.entries.splice(0, excess);
      recent.firstSeq += excess;
    }
  }
}
