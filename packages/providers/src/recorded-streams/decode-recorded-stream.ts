import type { ChatEvent } from '@youyou/agent';
import { AnthropicStreamDecoder } from '../anthropic/index.ts';
import { decodeBody } from '../http/index.ts';
import type { StreamDecoder } from '../http/index.ts';
import { OpenAIStreamDecoder } from '../openai-compatible/index.ts';

/**
 * Runs raw response bytes through a decoder exactly as a live call does, minus HTTP: the way to
 * test against recorded streams and to measure parser throughput.
 */
export async function* decodeRecordedStream(
  body: AsyncIterable<Uint8Array>,
  decoder: StreamDecoder,
): AsyncGenerator<ChatEvent> {
  for await (const batch of decodeBody(body, decoder)) yield* batch;
}

/**
 * Decodes recorded Chat Completions stream bytes into chat events.
 *
 * @example
 * const bytes = [new TextEncoder().encode('data: {"choices":[{"delta":{"content":"Hi"}}]}\n\ndata: [DONE]\n\n')];
 * for await (const event of decodeOpenAIStream(bytes)) console.log(event);
 * // { type: 'text_delta', text: 'Hi' }, { type: 'done' }
 */
export function decodeOpenAIStream(
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  providerId = 'recorded',
): AsyncGenerator<ChatEvent> {
  return decodeRecordedStream(toAsync(body), new OpenAIStreamDecoder(providerId));
}

/**
 * Decodes recorded Anthropic Messages stream bytes into chat events.
 *
 * @example
 * for await (const event of decodeAnthropicStream(chunks)) console.log(event.type);
 */
export function decodeAnthropicStream(
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  providerId = 'recorded',
  serverModel = 'recorded',
): AsyncGenerator<ChatEvent> {
  return decodeRecordedStream(toAsync(body), new AnthropicStreamDecoder(providerId, serverModel));
}

async function* toAsync(body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield* body;
}
