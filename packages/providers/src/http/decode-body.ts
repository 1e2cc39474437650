import type { ChatEvent } from '@youyou/agent';
import { SseParser } from '../sse/index.ts';
import type { SseVisitor } from '../sse/index.ts';
import { coalesceDeltas } from './coalesce-deltas.ts';
import type { StreamDecoder } from './stream-decoder.ts';

/**
 * Runs response bytes through SSE parsing and `decoder`, yielding the chat events of each network
 * read as one batch (adjacent deltas merged); the last batch holds the closing events. Stops as
 * soon as the decoder has finished.
 *
 * @example
 * for await (const batch of decodeBody(response.body, new OpenAIStreamDecoder('local'))) {
 *   for (const event of batch) console.log(event.type);
 * }
 */
export async function* decodeBody(
  body: AsyncIterable<Uint8Array>,
  decoder: StreamDecoder,
): AsyncGenerator<ChatEvent[]> {
  const parser = new SseParser();
  const text = new TextDecoder('utf-8');
  let out: ChatEvent[] = [];
  const visit: SseVisitor = (event, data) => {
    if (!decoder.finished) decoder.decode(event, data, out);
  };
  for await (const chunk of body) {
    parser.parse(text.decode(chunk, { stream: true }), visit);
    if (out.length > 0) {
      yield coalesceDeltas(out);
      out = [];
    }
    if (decoder.finished) return;
  }
  parser.parse(text.decode(), visit);
  decoder.end(out);
  if (out.length > 0) yield coalesceDeltas(out);
}
