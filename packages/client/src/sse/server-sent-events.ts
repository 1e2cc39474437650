import { createParser } from 'eventsource-parser';

/** One server-sent event (WHATWG HTML §9.2). */
export interface ServerSentEvent {
  /** The `event:` field, or `'message'` when the event named none. */
  event: string;
  /** The `data:` lines joined with `\n`. */
  data: string;
  /** The last event ID the stream set, up to and including this event (the spec's `lastEventId`). */
  lastEventId: string | undefined;
}

export interface ServerSentEventsOptions {
  /** Called when the stream sets a reconnection time (`retry:`), in milliseconds. */
  onRetry?: (milliseconds: number) => void;
  signal?: AbortSignal;
}

/**
 * Reads a byte stream as server-sent events with `eventsource-parser`, the one SSE parser of the
 * codebase: LF, CR and CRLF line ends, a byte-order mark, comments (heartbeats) skipped, multi-line
 * data, `id` carried forward as the last event ID, `retry` reported. UTF-8 characters split across
 * chunks decode whole; an event cut off by the end of the stream is never dispatched, as the
 * specification says, which is how a dropped stream shows itself.
 *
 * @example
 * const response = await fetch(url, { headers: { accept: 'text/event-stream' } });
 * for await (const message of readServerSentEvents(response.body!)) console.log(message.data);
 */
export async function* readServerSentEvents(
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  options: ServerSentEventsOptions = {},
): AsyncGenerator<ServerSentEvent> {
  let lastEventId: string | undefined;
  let ready: ServerSentEvent[] = [];
  const parser = createParser({
    onEvent: (message) => {
      if (message.id !== undefined) lastEventId = message.id;
      ready.push({ event: message.event ?? 'message', data: message.data, lastEventId });
    },
    ...(options.onRetry === undefined ? {} : { onRetry: options.onRetry }),
  });
  // The decoder drops a leading byte-order mark and keeps a character split across chunks whole.
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of iterate(body, options.signal)) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    if (ready.length === 0) continue;
    const batch = ready;
    ready = [];
    yield* batch;
  }
  parser.feed(decoder.decode());
  yield* ready;
}

/** A ReadableStream as an async iterable, in runtimes whose streams are not iterable yet. */
async function* iterate(
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  signal: AbortSignal | undefined,
): AsyncGenerator<Uint8Array> {
  if (!('getReader' in body)) {
    yield* body;
    return;
  }
  const reader = body.getReader();
  let finished = false;
  const cancel = (): void => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
    // A reader that stops early closes the connection rather than leaving it open.
    if (!finished) cancel();
  }
}
