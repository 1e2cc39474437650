import { ServerSentEventParser, type ServerSentEvent } from './server-sent-event-parser.ts';

export interface ServerSentEventsOptions {
  /** Called when the stream sets a reconnection time (`retry:`), in milliseconds. */
  onRetry?: (milliseconds: number) => void;
  /** Stops reading: the body is cancelled, which closes its connection. */
  signal?: AbortSignal;
}

/**
 * Reads a byte stream as server-sent events through `ServerSentEventParser`. UTF-8 characters
 * split across chunks decode whole; the events one chunk completed are yielded together, before
 * the next chunk is read. Only web-platform globals (`TextDecoder`, streams): it runs in browsers,
 * Node and Deno.
 *
 * @example
 * const response = await fetch(url, { headers: { accept: 'text/event-stream' } });
 * for await (const message of readServerSentEvents(response.body!)) console.log(message.data);
 */
export async function* readServerSentEvents(
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  options: ServerSentEventsOptions = {},
): AsyncGenerator<ServerSentEvent> {
  const parser = new ServerSentEventParser(options.onRetry === undefined ? {} : { onRetry: options.onRetry });
  // The decoder keeps a character split across chunks whole (and drops a leading byte-order mark).
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of iterate(body, options.signal)) {
    yield* parser.push(decoder.decode(chunk, { stream: true }));
  }
  yield* parser.push(decoder.decode());
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
