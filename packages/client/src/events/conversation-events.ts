import { isKnownEventType, type WorkbenchEvent } from '@youyou/contracts';
import { ApiError, connect, type ConnectionOptions } from '../connection/index.ts';
import { readServerSentEvents } from '@youyou/agent/sse';

export type StreamState = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface ConversationEventsOptions extends ConnectionOptions {
  conversationId: string;
  /** Resume after this seq (the Query's `last_seq`, or the last event seen); sent as `Last-Event-ID`. */
  after: number;
  /** Ends the stream (and its connection). */
  signal?: AbortSignal;
  /** Reconnect after a dropped connection or a retryable answer; default true. */
  reconnect?: boolean;
  /** Delays between reconnect attempts, the last one repeating; a server's `retry:` is a floor. */
  backoffMs?: readonly number[];
  onState?: (state: StreamState) => void;
}

const DEFAULT_BACKOFF_MS = [250, 500, 1000, 2000, 5000];

/** The event a data line carries, or undefined when it is not one of this conversation's. */
function eventOf(data: string, conversationId: string): WorkbenchEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  // The envelope is checked by hand rather than by zod: this runs once per streamed delta, and a
  // schema would also strip the fields a newer server added.
  if (typeof value !== 'object' || value === null) return undefined;
  const event = value as Partial<WorkbenchEvent>;
  if (typeof event.seq !== 'number' || typeof event.type !== 'string') return undefined;
  if (event.conversation_id !== conversationId) return undefined;
  return event as WorkbenchEvent;
}

function sleep(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, milliseconds);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Statuses worth another try: the server is starting, overloaded or briefly gone. */
function isRetryable(error: unknown): boolean {
  return !(error instanceof ApiError) || error.retryable || error.status === 429 || error.status >= 500;
}

/**
 * A conversation's live events (`GET /api/conversations/:id/events`) as an async iterable. After
 * a dropped connection it reconnects with `Last-Event-ID` set to the last seq it saw, so nothing
 * is lost or repeated (an event at or below that seq is dropped in case the server repeats one).
 * Events of a type this client does not know are skipped (spec §5). A 4xx answer other than 429
 * (the conversation is gone, the token is wrong) throws `ApiError`; the stream otherwise runs
 * until `signal` aborts or the loop breaks. `fetch`, not `EventSource`, so the token header and
 * the first `Last-Event-ID` can be sent.
 *
 * @example
 * const view = await client.getConversation(id);
 * const projection = new ConversationProjection();
 * for await (const event of readConversationEvents({ baseUrl, token, conversationId: id, after: view.last_seq, signal })) {
 *   projection.apply(event);
 * }
 */
export async function* readConversationEvents(
  options: ConversationEventsOptions,
): AsyncGenerator<WorkbenchEvent> {
  const connection = connect(options);
  const { signal, conversationId } = options;
  const reconnect = options.reconnect ?? true;
  const backoff = options.backoffMs ?? DEFAULT_BACKOFF_MS;
  const url = connection.url(`/api/conversations/${encodeURIComponent(conversationId)}/events`);
  // A function, not a narrowed property: the signal aborts while the loop awaits.
  const aborted = (): boolean => signal?.aborted === true;
  let lastSeq = options.after;
  let attempt = 0;
  let retryFloor = 0;
  options.onState?.('connecting');
  try {
    while (!aborted()) {
      try {
        const response = await connection.fetch(url, {
          headers: { accept: 'text/event-stream', 'last-event-id': String(lastSeq) },
          ...(signal === undefined ? {} : { signal }),
        });
        if (!response.ok) throw await ApiError.fromResponse(response);
        if (response.body === null)
          throw new ApiError('HTTP_ERROR', 'The event stream has no body.', response.status);
        options.onState?.('open');
        attempt = 0;
        const messages = readServerSentEvents(response.body, {
          ...(signal === undefined ? {} : { signal }),
          onRetry: (milliseconds) => {
            retryFloor = milliseconds;
          },
        });
        for await (const message of messages) {
          const event = eventOf(message.data, conversationId);
          if (event === undefined || event.seq <= lastSeq) continue;
          lastSeq = event.seq;
          if (isKnownEventType(event.type)) yield event;
        }
      } catch (error) {
        if (aborted()) return;
        if (!reconnect || !isRetryable(error)) throw error;
      }
      if (!reconnect || aborted()) return;
      options.onState?.('reconnecting');
      await sleep(Math.max(retryFloor, backoff[Math.min(attempt, backoff.length - 1)] ?? 1000), signal);
      attempt += 1;
    }
  } finally {
    options.onState?.('closed');
  }
}
