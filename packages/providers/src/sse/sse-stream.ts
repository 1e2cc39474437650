import { SseParser } from './sse-parser.ts';
import type { SseEvent } from './sse-parser.ts';

/**
 * Reads a byte stream as server-sent events, yielding the events each network chunk completed
 * (an empty batch is skipped). UTF-8 characters split across chunks are decoded whole.
 *
 * @example
 * const response = await fetch(url, { signal });
 * for await (const batch of readSseBatches(response.body!)) {
 *   for (const event of batch) console.log(event.event, event.data);
 * }
 */
export async function* readSseBatches(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent[]> {
  const decoder = new TextDecoder('utf-8');
  const parser = new SseParser();
  for await (const chunk of body) {
    const events = parser.push(decoder.decode(chunk, { stream: true }));
    if (events.length > 0) yield events;
  }
  const events = parser.push(decoder.decode());
  if (events.length > 0) yield events;
}

/**
 * Reads a byte stream as server-sent events, one event at a time.
 *
 * @example
 * for await (const event of readSse(response.body!)) console.log(event.data);
 */
export async function* readSse(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent> {
  for await (const batch of readSseBatches(body)) yield* batch;
}
