import { SseParser } from './sse-parser.ts';
import type { WorkbenchEvent } from '@youyou/contracts';

export type StreamState = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface EventStreamOptions {
  conversationId: string;
  /** Resume after this seq (sent as `Last-Event-ID`); 0 for everything. */
  after: number;
  onEvent: (event: WorkbenchEvent) => void;
  onState?: (state: StreamState) => void;
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Delays between reconnect attempts; the last one repeats. */
  backoffMs?: readonly number[];
}

/** A live event subscription; `close()` ends it for good. */
export interface EventStream {
  readonly lastSeq: number;
  close(): void;
}

const DEFAULT_BACKOFF_MS = [250, 500, 1000, 2000, 5000];

/**
 * Subscribes to a conversation's events over SSE (`GET /api/conversations/:id/events`) with
 * `Last-Event-ID` resume: after a dropped connection it reconnects from the last seq it delivered,
 * so nothing is lost or repeated; an event at or below that seq is dropped in case the server
 * repeats one. fetch (not EventSource) so the first connection can carry `Last-Event-ID` too.
 *
 * @example
 * const stream = openEventStream({ conversationId, after: query.last_seq, onEvent: (event) => store.apply(event) });
 * stream.close();
 */
export function openEventStream(options: EventStreamOptions): EventStream {
  const controller = new AbortController();
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const backoff = options.backoffMs ?? DEFAULT_BACKOFF_MS;
  let lastSeq = options.after;
  let attempt = 0;

  const setState = (state: StreamState): void => options.onState?.(state);

  async function connectOnce(): Promise<void> {
    const url = `${options.baseUrl ?? ''}/api/conversations/${encodeURIComponent(options.conversationId)}/events`;
    const response = await doFetch(url, {
      headers: { accept: 'text/event-stream', 'last-event-id': String(lastSeq) },
      credentials: 'same-origin',
      cache: 'no-store',
      signal: controller.signal,
    });
    // A conversation that is gone will not come back: stop instead of retrying for ever.
    if (response.status === 404) {
      controller.abort();
      return;
    }
    if (!response.ok || response.body === null)
      throw new Error(`event stream answered ${String(response.status)}`);
    setState('open');
    attempt = 0;
    const parser = new SseParser();
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      for (const message of parser.push(value)) {
        if (message.data === '') continue;
        let event: WorkbenchEvent;
        try {
          event = JSON.parse(message.data) as WorkbenchEvent;
        } catch {
          continue;
        }
        if (typeof event.seq !== 'number' || event.seq <= lastSeq) continue;
        if (event.conversation_id !== options.conversationId) continue;
        lastSeq = event.seq;
        options.onEvent(event);
      }
    }
  }

  async function run(): Promise<void> {
    setState('connecting');
    while (!controller.signal.aborted) {
      try {
        await connectOnce();
      } catch {
        // Dropped or refused: resume below from lastSeq.
      }
      if (controller.signal.aborted) break;
      setState('reconnecting');
      const delay = backoff[Math.min(attempt, backoff.length - 1)] ?? 1000;
      attempt += 1;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        controller.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    setState('closed');
  }

  void run();
  return {
    get lastSeq() {
      return lastSeq;
    },
    close: () => controller.abort(),
  };
}
