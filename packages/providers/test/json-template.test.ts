import { describe, expect, it } from 'vitest';
import type { ChatEvent } from '@youyou/agent';
import {
  AnthropicStreamDecoder,
  OpenAIStreamDecoder,
  StringSlotTemplate,
  findStringSlot,
} from '@youyou/providers';
import type { StreamDecoder } from '@youyou/providers';

/** A small deterministic generator, so a failure names a seed that reproduces it. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const ALPHABET = [
  'a',
  'Z',
  '0',
  ' ',
  '"',
  '\\',
  '{',
  '}',
  '[',
  ']',
  ':',
  ',',
  'é',
  '中',
  '🎉',
  '\n',
  '\t',
  '\u0001',
  'u',
  'n',
];

function randomString(next: () => number, length: number): string {
  let text = '';
  for (let index = 0; index < length; index += 1) text += ALPHABET[Math.floor(next() * ALPHABET.length)];
  return text;
}

function mutate(next: () => number, json: string): string {
  const position = Math.floor(next() * (json.length + 1));
  const roll = next();
  if (roll < 0.35)
    return json.slice(0, position) + randomString(next, 1 + Math.floor(next() * 3)) + json.slice(position);
  if (roll < 0.7) return json.slice(0, position) + json.slice(position + 1 + Math.floor(next() * 3));
  return json.slice(0, position) + randomString(next, 1) + json.slice(position + 1);
}

const SHAPES: { key: string; build: (value: string) => unknown }[] = [
  {
    key: 'content',
    build: (value) => ({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'm',
      choices: [{ index: 0, delta: { content: value }, logprobs: null, finish_reason: null }],
    }),
  },
  {
    key: 'arguments',
    build: (value) => ({
      choices: [{ index: 0, delta: { tool_calls: [{ index: 1, function: { arguments: value } }] } }],
    }),
  },
  {
    key: 'text',
    build: (value) => ({ type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: value } }),
  },
];

describe('StringSlotTemplate', () => {
  it('finds a key only when it occurs once, and the extent of its string value', () => {
    const json = '{"a":"x\\\\","delta":{"content":"say \\"hi\\""}}';
    const slot = findStringSlot(json, 'content');
    expect(slot).toBeDefined();
    expect(JSON.parse(json.slice(...slot!))).toBe('say "hi"');
    expect(findStringSlot('{"content":"a","x":{"content":"b"}}', 'content')).toBeUndefined();
    expect(findStringSlot('{"content":null}', 'content')).toBeUndefined();
  });

  it('reads exactly what JSON.parse reads, or declines, for thousands of mutated chunks', () => {
    for (let seed = 1; seed <= 3_000; seed += 1) {
      const next = random(seed);
      const shape = SHAPES[seed % SHAPES.length]!;
      const learned = JSON.stringify(shape.build(randomString(next, 1 + Math.floor(next() * 8))));
      const template = new StringSlotTemplate();
      template.learn(learned, findStringSlot(learned, shape.key)!);
      const value = randomString(next, Math.floor(next() * 12));
      let candidate = JSON.stringify(shape.build(value));
      if (next() < 0.6) candidate = mutate(next, candidate);
      const read = template.read(candidate);
      let parsed: unknown;
      try {
        parsed = JSON.parse(candidate);
      } catch {
        expect(read, `seed ${seed}: ${candidate}`).toBeUndefined();
        continue;
      }
      if (read === undefined) continue;
      expect(parsed, `seed ${seed}: ${candidate}`).toEqual(shape.build(read));
    }
  });
});

function run(decoder: StreamDecoder, chunks: readonly string[]): ChatEvent[] {
  const out: ChatEvent[] = [];
  for (const data of chunks) decoder.decode('message', data, out);
  decoder.end(out);
  return out;
}

describe('decoders with learned shapes', () => {
  it('give the same events as parsing every chunk, for OpenAI-compatible streams with odd chunks mixed in', () => {
    for (let seed = 1; seed <= 300; seed += 1) {
      const next = random(seed);
      const chunks: string[] = [
        JSON.stringify({
          choices: [
            {
              index: 0,
              delta: { tool_calls: [{ index: 0, id: 'c', function: { name: 'f', arguments: '' } }] },
            },
          ],
        }),
      ];
      for (let index = 0; index < 40; index += 1) {
        const value = randomString(next, Math.floor(next() * 6));
        const roll = next();
        const delta =
          roll < 0.4
            ? { content: value }
            : roll < 0.6
              ? { reasoning_content: value }
              : roll < 0.7
                ? { reasoning: value, content: null }
                : { tool_calls: [{ index: 0, function: { arguments: value } }] };
        let chunk = JSON.stringify({ id: 'x', choices: [{ index: 0, delta, finish_reason: null }] });
        if (next() < 0.1) chunk = mutate(next, chunk);
        chunks.push(chunk);
        if (chunk.includes('"error"')) break;
      }
      chunks.push(
        JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }),
        '[DONE]',
      );
      const fast = run(new OpenAIStreamDecoder('p'), chunks);
      const reference = runWithoutTemplates(chunks);
      expect(normalise(fast), `seed ${seed}`).toEqual(normalise(reference));
    }
  });

  it('give the same events as parsing every chunk, for Anthropic streams', () => {
    for (let seed = 1; seed <= 200; seed += 1) {
      const next = random(seed);
      const chunks: string[] = [
        JSON.stringify({ type: 'message_start', message: { usage: { input_tokens: 3, output_tokens: 1 } } }),
        JSON.stringify({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      ];
      for (let index = 0; index < 30; index += 1) {
        let chunk = JSON.stringify({
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'text_delta', text: randomString(next, Math.floor(next() * 6)) },
        });
        if (next() < 0.1) chunk = mutate(next, chunk);
        chunks.push(chunk);
      }
      chunks.push(
        JSON.stringify({ type: 'message_delta', delta: { stop_reason: 'end_turn' } }),
        JSON.stringify({ type: 'message_stop' }),
      );
      const fast = run(new AnthropicStreamDecoder('p', 'm'), chunks);
      const reference = runAnthropicWithoutTemplates(chunks);
      expect(normalise(fast), `seed ${seed}`).toEqual(normalise(reference));
    }
  });
});

/**
 * The plain path: every chunk gets a different amount of trailing whitespace (still the same
 * JSON), so no learned shape ever matches and each chunk is parsed in full.
 */
function pad(chunks: readonly string[]): string[] {
  return chunks.map((chunk, index) => (chunk === '[DONE]' ? chunk : chunk + ' '.repeat(index)));
}

function runWithoutTemplates(chunks: readonly string[]): ChatEvent[] {
  return run(new OpenAIStreamDecoder('p'), pad(chunks));
}

function runAnthropicWithoutTemplates(chunks: readonly string[]): ChatEvent[] {
  return run(new AnthropicStreamDecoder('p', 'm'), pad(chunks));
}

/** Errors compare by code and retryability; the rest as is. */
function normalise(events: readonly ChatEvent[]): unknown[] {
  return events.map((event) =>
    event.type === 'error'
      ? { type: 'error', code: event.error.code, retryable: event.error.retryable }
      : event,
  );
}
