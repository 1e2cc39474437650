import type { ChatEvent } from '@youyou/agent';
import { ServerSentEventParser, type ServerSentEventVisitor } from '@youyou/agent/sse';
import { coalesceDeltas } from './coalesce-deltas.ts';
import { ErrorLineScanner } from './error-lines.ts';
import type { StreamDecoder } from './stream-decoder.ts';

/**
 * Runs response bytes through SSE parsing and `decoder`, yielding the chat events of each network
 * read as one batch (adjacent deltas merged); the last batch holds the closing events. Stops as
 * soon as the decoder has finished. A bare `error: …` line (older llama.cpp) reaches the decoder
 * as an `error` event.
 *
 * @example
 * for await (const batch of decodeBody(response.body, new OpenAIStreamDecoder('local'))) {
 *   for (const event of batch) console.log(event.type);
 * }
 */
export async function* decodeBody(
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  decoder: StreamDecoder,
): AsyncGenerator<ChatEvent[]> {
  const parser = new ServerSentEventParser();
  const text = new TextDecoder('utf-8');
  let out: ChatEvent[] = [];
  const errorLines = new ErrorLineScanner();
  const visit: ServerSentEventVisitor = (event, data) => {
    if (!decoder.finished) decoder.decode(event, data, out);
  };
  const visitErrorLine = (data: string): void => visit('error', data);
  for await (const chunk of body) {
    const decoded = text.decode(chunk, { stream: true });
    parser.parse(decoded, visit);
    errorLines.scan(decoded, visitErrorLine);
    if (out.length > 0) {
      yield coalesceDeltas(out);
      out = [];
    }
    if (decoder.finished) return;
  }
  const rest = text.decode();
  parser.parse(rest, visit);
  errorLines.scan(rest, visitErrorLine);
  errorLines.flush(visitErrorLine);
  decoder.end(out);
  if (out.length > 0) yield coalesceDeltas(out);
}
