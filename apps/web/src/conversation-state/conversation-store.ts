import {
  isSettled,
  type ConversationMessage,
  type ConversationView,
  type MessageStatus,
  type RunDescription,
  type RunStatus,
  type WorkbenchEvent,
} from '@youyou/contracts';
import { applyToRun, createdRun, type RunView } from './run-view.ts';

/** What the conversation view renders: the active branch, run by run, and where the stream is. */
export interface ConversationSnapshot {
  conversationId: string;
  /** False until the first Query arrived. */
  loaded: boolean;
  title: string;
  runs: readonly RunView[];
  /** The in-flight run, when there is one. */
  activeRun: RunView | undefined;
  lastSeq: number;
  /** Set while older turns of the branch exist that are not loaded (pass as `before`). */
  earlierCursor: string | undefined;
}

const STATUS_OF_MESSAGE: Record<MessageStatus, RunStatus> = {
  pending: 'pending',
  streaming: 'running',
  complete: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
  interrupted: 'interrupted',
};

/** Pairs the Query's messages into runs (a user message and the answer after it). */
export function runsOfQuery(query: ConversationView): RunView[] {
  const runs: RunView[] = [];
  const byRun = new Map<string, { user?: ConversationMessage; assistant?: ConversationMessage }>();
  const order: string[] = [];
  for (const message of query.messages) {
    let pair = byRun.get(message.run_id);
    if (pair === undefined) {
      pair = {};
      byRun.set(message.run_id, pair);
      order.push(message.run_id);
    }
    pair[message.role] = message;
  }
  const described = new Map<string, RunDescription>(query.runs.map((run) => [run.id, run]));
  if (query.in_flight_run !== null) described.set(query.in_flight_run.id, query.in_flight_run);
  let previous: string | null = null;
  for (const runId of order) {
    const pair = byRun.get(runId);
    if (pair?.user === undefined) continue;
    const assistant: ConversationMessage = pair.assistant ?? {
      id: `${runId}:assistant`,
      role: 'assistant',
      run_id: runId,
      parent_id: pair.user.id,
      status: 'pending',
      parts: [],
      created_at: pair.user.created_at,
    };
    const fallbackStatus = STATUS_OF_MESSAGE[assistant.status];
    runs.push({
      run: described.get(runId) ?? {
        id: runId,
        conversation_id: query.conversation.id,
        parent_run_id: null,
        previous_run_id: previous,
        user_message_id: pair.user.id,
        kind: 'conversation',
        status: fallbackStatus,
        phase: fallbackStatus === 'running' ? 'responding' : 'done',
        model_id: assistant.model_id ?? null,
        created_at: pair.user.created_at,
      },
      user: pair.user,
      assistant,
      last_seq: query.last_seq,
    });
    previous = runId;
  }
  return runs;
}

/**
 * A conversation's state outside React (STYLE.md: framework-neutral stores, components subscribe
 * thinly with useSyncExternalStore). The Query is the authority: `setQuery` replaces the base and
 * re-applies only the live events newer than it, so after a reconnect or a reload mid-run the view
 * continues where it was and then converges on the Query, with no duplicates.
 *
 * @example
 * const store = new ConversationStore('c1');
 * store.setQuery(await api.getConversation('c1'));
 * openEventStream({ conversationId: 'c1', after: store.getSnapshot().lastSeq, onEvent: (e) => store.apply(e) });
 */
export class ConversationStore {
  readonly conversationId: string;
  readonly #listeners = new Set<() => void>();
  readonly #now: () => number;
  #baseSeq = 0;
  /** Live events newer than the Query, kept so a newer Query can be joined with them. */
  #pending: WorkbenchEvent[] = [];
  #snapshot: ConversationSnapshot;
  /** Client timing of live runs survives a Query replace (the Query has no client clock). */
  readonly #timing = new Map<string, { startedAt?: number; thinkingEndedAt?: number }>();
  /** Older pages loaded on scroll-up: the turns before the Query's page. */
  #older: readonly RunView[] = [];
  #earlierCursor: string | undefined;

  constructor(conversationId: string, options: { now?: () => number } = {}) {
    this.conversationId = conversationId;
    this.#now = options.now ?? (() => Date.now());
    this.#snapshot = {
      conversationId,
      loaded: false,
      title: '',
      runs: [],
      activeRun: undefined,
      lastSeq: 0,
      earlierCursor: undefined,
    };
  }

  getSnapshot = (): ConversationSnapshot => this.#snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** Joins the authoritative Query with the live events newer than it. */
  setQuery(query: ConversationView): void {
    if (this.#snapshot.loaded && query.last_seq < this.#baseSeq) return; // an older answer arrived late
    this.#baseSeq = query.last_seq;
    this.#pending = this.#pending.filter((event) => event.seq > query.last_seq);
    const page = runsOfQuery(query).map((run) => ({ ...run, ...this.#timing.get(run.run.id) }));
    this.#keepOlder(page, query.earlier_cursor);
    let runs: readonly RunView[] = [...this.#older, ...page];
    let title = query.conversation.title;
    let lastSeq = query.last_seq;
    for (const event of this.#pending) {
      ({ runs, title } = this.#reduce(runs, title, event));
      lastSeq = Math.max(lastSeq, event.seq);
    }
    this.#publish(runs, title, lastSeq, true);
  }

  /**
   * Adds an earlier page of the branch (the Query with `before`) in front of what is loaded.
   *
   * @example
   * store.prependPage(await api.getConversation(id, { before: store.getSnapshot().earlierCursor }));
   */
  prependPage(page: ConversationView): void {
    const loaded = new Set(this.#snapshot.runs.map((run) => run.run.id));
    const earlier = runsOfQuery(page).filter((run) => !loaded.has(run.run.id));
    this.#older = [...earlier, ...this.#older];
    this.#earlierCursor = page.earlier_cursor;
    const { title, lastSeq, loaded: isLoaded } = this.#snapshot;
    this.#publish([...earlier, ...this.#snapshot.runs], title, lastSeq, isLoaded);
  }

  /**
   * Keeps the older turns already loaded that come before the new page; a page that does not
   * join what is loaded (another branch) drops them.
   */
  #keepOlder(page: readonly RunView[], earlierCursor: string | undefined): void {
    const first = page[0];
    const known = this.#snapshot.runs;
    const index = first === undefined ? -1 : known.findIndex((run) => run.run.id === first.run.id);
    if (index === -1 || earlierCursor === undefined) {
      this.#older = [];
      this.#earlierCursor = earlierCursor;
      return;
    }
    const hadOlder = this.#older.length > 0;
    this.#older = known.slice(0, index);
    if (!hadOlder && this.#older.length === 0) this.#earlierCursor = earlierCursor;
  }

  /** Applies a live event; repeats and events of other conversations are dropped. */
  apply(event: WorkbenchEvent): void {
    if (event.conversation_id !== this.conversationId || event.seq <= this.#snapshot.lastSeq) return;
    this.#pending.push(event);
    const { runs, title } = this.#reduce(this.#snapshot.runs, this.#snapshot.title, event);
    this.#publish(runs, title, event.seq, this.#snapshot.loaded);
  }

  /** True when a run is in flight (the stream should stay open even when the view is elsewhere). */
  isRunning(): boolean {
    return this.#snapshot.activeRun !== undefined;
  }

  #reduce(
    runs: readonly RunView[],
    title: string,
    event: WorkbenchEvent,
  ): { runs: readonly RunView[]; title: string } {
    if (event.type === 'conversation.updated') return { runs, title: event.payload.title ?? title };
    if (event.type === 'run.created') {
      if (event.payload.run.parent_run_id !== null) return { runs, title };
      if (runs.some((run) => run.run.id === event.payload.run.id)) return { runs, title };
      const created = createdRun(event, this.#now());
      // A new run continues the branch after its previous run: what followed it is another branch now.
      const previous = event.payload.run.previous_run_id;
      const cut = previous === null ? 0 : runs.findIndex((run) => run.run.id === previous) + 1;
      return { runs: [...runs.slice(0, cut), created], title };
    }
    const index = runs.findIndex((run) => run.run.id === event.run_id);
    if (index === -1) return { runs, title };
    const current = runs[index];
    if (current === undefined) return { runs, title };
    const updated = applyToRun(current, event, this.#now());
    if (updated === current) return { runs, title };
    this.#timing.set(updated.run.id, {
      ...(updated.startedAt === undefined ? {} : { startedAt: updated.startedAt }),
      ...(updated.thinkingEndedAt === undefined ? {} : { thinkingEndedAt: updated.thinkingEndedAt }),
    });
    const next = [...runs];
    next[index] = updated;
    return { runs: next, title };
  }

  #publish(runs: readonly RunView[], title: string, lastSeq: number, loaded: boolean): void {
    const last = runs.at(-1);
    const activeRun = last !== undefined && !isSettled(last) ? last : undefined;
    this.#snapshot = {
      conversationId: this.conversationId,
      loaded,
      title,
      runs,
      activeRun,
      lastSeq,
      earlierCursor: this.#earlierCursor,
    };
    for (const listener of this.#listeners) listener();
  }
}
