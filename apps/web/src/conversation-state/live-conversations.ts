import type { QueryClient } from '@tanstack/react-query';
import { openEventStream, type ApiClient, type EventStream, type StreamState } from '../api/index.ts';
import type { Conversation, ConversationView, WorkbenchEvent } from '@youyou/contracts';
import { ConversationStore } from './conversation-store.ts';

const TERMINAL_EVENTS: ReadonlySet<string> = new Set([
  'run.completed',
  'run.failed',
  'run.cancelled',
  'run.interrupted',
]);

const MAX_IDLE_STORES = 20;
const MARK_READ_DELAY_MS = 400;

/** The query key of a conversation's Query. */
export function conversationKey(id: string): readonly ['conversation', string] {
  return ['conversation', id];
}

export const CONVERSATIONS_KEY = ['conversations'] as const;

export interface LiveConversationsOptions {
  api: ApiClient;
  queryClient: QueryClient;
  openStream?: typeof openEventStream;
}

/**
 * Keeps one ConversationStore per conversation and the SSE streams that feed them: the visible
 * conversation's stream, plus the stream of every conversation with a run in flight, so switching
 * away never loses a run and coming back shows it live (background runs). When a run ends, the
 * conversation's Query is refetched and the store converges on it. Events are routed by
 * conversation id, so a late event of a conversation you left never reaches the one you see.
 *
 * @example
 * const live = new LiveConversations({ api, queryClient });
 * live.focus('c1');
 * live.store('c1').getSnapshot().runs;
 */
export class LiveConversations {
  readonly #api: ApiClient;
  readonly #queryClient: QueryClient;
  readonly #openStream: typeof openEventStream;
  readonly #stores = new Map<string, ConversationStore>();
  readonly #streams = new Map<string, EventStream>();
  readonly #running = new Set<string>();
  readonly #listeners = new Set<() => void>();
  readonly #eventListeners = new Set<(conversationId: string, event: WorkbenchEvent) => void>();
  readonly #loadingEarlier = new Set<string>();
  /** The read cursor written to the server, per conversation. */
  readonly #marked = new Map<string, number>();
  #markTimer: ReturnType<typeof setTimeout> | undefined;
  #unsubscribeFocused: (() => void) | undefined;
  #focused: string | undefined;
  #runningSnapshot: ReadonlySet<string> = new Set();
  #streamState: StreamState = 'closed';

  constructor(options: LiveConversationsOptions) {
    this.#api = options.api;
    this.#queryClient = options.queryClient;
    this.#openStream = options.openStream ?? openEventStream;
    this.#queryClient.getQueryCache().subscribe((cacheEvent) => {
      const key = cacheEvent.query.queryKey;
      if (
        cacheEvent.type === 'updated' &&
        key[0] === CONVERSATIONS_KEY[0] &&
        cacheEvent.action.type === 'success'
      ) {
        this.#watchListed(cacheEvent.query.state.data);
      }
      if (cacheEvent.type !== 'updated' || key[0] !== 'conversation' || typeof key[1] !== 'string') return;
      const data = cacheEvent.query.state.data as ConversationView | undefined;
      if (data !== undefined && cacheEvent.action.type === 'success') this.ingest(key[1], data);
    });
  }

  store(conversationId: string): ConversationStore {
    let store = this.#stores.get(conversationId);
    if (store === undefined) {
      store = new ConversationStore(conversationId);
      this.#stores.set(conversationId, store);
    }
    return store;
  }

  get focused(): string | undefined {
    return this.#focused;
  }

  /** Conversations with a run in flight that this client knows of. */
  getRunning = (): ReadonlySet<string> => this.#runningSnapshot;

  getStreamState = (): StreamState => this.#streamState;

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** Shows a conversation: its stream opens once its Query is in; streams of idle others close. */
  focus(conversationId: string | undefined): void {
    if (this.#focused === conversationId) return;
    const previous = this.#focused;
    // Leaving a conversation: what it showed has been read, even within the delay.
    if (previous !== undefined) {
      clearTimeout(this.#markTimer);
      this.#markRead(previous);
    }
    this.#focused = conversationId;
    if (previous !== undefined && !this.#running.has(previous)) this.#closeStream(previous);
    if (conversationId !== undefined && this.store(conversationId).getSnapshot().loaded)
      this.#ensureStream(conversationId);
    this.#streamState = conversationId !== undefined && this.#streams.has(conversationId) ? 'open' : 'closed';
    this.#unsubscribeFocused?.();
    this.#unsubscribeFocused = undefined;
    if (conversationId !== undefined) {
      const store = this.store(conversationId);
      this.#unsubscribeFocused = store.subscribe(() => this.#scheduleMarkRead());
      this.#scheduleMarkRead();
    }
    this.#evictIdleStores();
    this.#notify();
  }

  /** A Query arrived: join it into the store and keep the stream right. */
  ingest(conversationId: string, query: ConversationView): void {
    const store = this.store(conversationId);
    store.setQuery(query);
    this.#setRunning(conversationId, store.isRunning());
    if (conversationId === this.#focused || store.isRunning()) this.#ensureStream(conversationId);
    else this.#closeStream(conversationId);
  }

  /**
   * Runs the listing says are in flight (started in another tab, by a script, before a reload)
   * are watched too: their conversation's stream opens from the listing's seq, so the left column
   * sees them end.
   */
  #watchListed(data: unknown): void {
    const pages = (data as { pages?: { conversations?: Conversation[] }[] } | undefined)?.pages ?? [];
    for (const page of pages) {
      for (const conversation of page.conversations ?? []) {
        const inFlight = conversation.in_flight_run_id ?? null;
        if (inFlight === null || this.#streams.has(conversation.id)) continue;
        this.#setRunning(conversation.id, true);
        this.#ensureStream(conversation.id, conversation.last_seq);
      }
    }
  }

  /** A run was just started from this client: track it even before its first event. */
  markRunning(conversationId: string): void {
    this.#setRunning(conversationId, true);
    if (this.store(conversationId).getSnapshot().loaded) this.#ensureStream(conversationId);
  }

  /** Loads the page of turns before what is loaded (scrolling up a long conversation). */
  async loadEarlier(conversationId: string): Promise<void> {
    const store = this.store(conversationId);
    const cursor = store.getSnapshot().earlierCursor;
    if (cursor === undefined || this.#loadingEarlier.has(conversationId)) return;
    this.#loadingEarlier.add(conversationId);
    try {
      store.prependPage(await this.#api.getConversation(conversationId, { before: cursor }));
    } finally {
      this.#loadingEarlier.delete(conversationId);
    }
  }

  /** Closes every stream (page unload, tests). */
  dispose(): void {
    clearTimeout(this.#markTimer);
    for (const id of [...this.#streams.keys()]) this.#closeStream(id);
  }

  /**
   * What the shown conversation holds has been read: once no run streams into it (not on every
   * delta), a moment later, the server's read cursor moves up to it.
   */
  #scheduleMarkRead(): void {
    clearTimeout(this.#markTimer);
    this.#markTimer = setTimeout(() => {
      if (this.#focused !== undefined) this.#markRead(this.#focused);
    }, MARK_READ_DELAY_MS);
  }

  #markRead(conversationId: string): void {
    const snapshot = this.store(conversationId).getSnapshot();
    if (!snapshot.loaded || snapshot.activeRun !== undefined) return;
    if (snapshot.lastSeq <= (this.#marked.get(conversationId) ?? -1)) return;
    this.#marked.set(conversationId, snapshot.lastSeq);
    this.#api.markRead(conversationId, snapshot.lastSeq).catch(() => this.#marked.delete(conversationId));
  }

  /** Past MAX_IDLE_STORES, forgets conversations that are neither shown nor running (the Query cache has them). */
  #evictIdleStores(): void {
    if (this.#stores.size <= MAX_IDLE_STORES) return;
    for (const id of this.#stores.keys()) {
      if (this.#stores.size <= MAX_IDLE_STORES) break;
      if (id !== this.#focused && !this.#running.has(id) && !this.#streams.has(id)) this.#stores.delete(id);
    }
  }

  #ensureStream(conversationId: string, after?: number): void {
    if (this.#streams.has(conversationId)) return;
    const store = this.store(conversationId);
    let dropped = false;
    const stream = this.#openStream({
      conversationId,
      after: after ?? store.getSnapshot().lastSeq,
      onEvent: (event) => this.#onEvent(conversationId, event),
      onState: (state) => {
        // After a reconnect the Query is the authority: refetch it and converge.
        if (state === 'open' && dropped) {
          void this.#queryClient.invalidateQueries({ queryKey: conversationKey(conversationId) });
        }
        dropped = state === 'reconnecting';
        if (conversationId !== this.#focused) return;
        this.#streamState = state;
        this.#notify();
      },
    });
    this.#streams.set(conversationId, stream);
  }

  #closeStream(conversationId: string): void {
    this.#streams.get(conversationId)?.close();
    this.#streams.delete(conversationId);
  }

  /**
   * Every live event of every stream, after its store has it: for state kept outside the message
   * list (the planboard, notifications). Returns the unsubscribe function.
   */
  onEvent(listener: (conversationId: string, event: WorkbenchEvent) => void): () => void {
    this.#eventListeners.add(listener);
    return () => this.#eventListeners.delete(listener);
  }

  #onEvent(conversationId: string, event: WorkbenchEvent): void {
    const store = this.store(conversationId);
    store.apply(event);
    for (const listener of this.#eventListeners) listener(conversationId, event);
    // A card raised or answered changes the left column's "waiting for you" mark.
    if (event.type === 'hitl.request' || event.type === 'hitl.resolved')
      void this.#queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY });
    if (event.type === 'run.created') this.#setRunning(conversationId, true);
    if (event.type === 'conversation.updated')
      void this.#queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY });
    if (TERMINAL_EVENTS.has(event.type)) {
      this.#setRunning(conversationId, store.isRunning());
      void this.#queryClient.invalidateQueries({ queryKey: conversationKey(conversationId) });
      void this.#queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY });
      if (conversationId !== this.#focused && !store.isRunning()) this.#closeStream(conversationId);
    }
  }

  #setRunning(conversationId: string, running: boolean): void {
    if (this.#running.has(conversationId) === running) return;
    if (running) this.#running.add(conversationId);
    else this.#running.delete(conversationId);
    this.#runningSnapshot = new Set(this.#running);
    this.#notify();
  }

  #notify(): void {
    for (const listener of this.#listeners) listener();
  }

  /** The API client, for actions that go with a conversation (send, cancel). */
  get api(): ApiClient {
    return this.#api;
  }
}
