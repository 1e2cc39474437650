import { describe, expect, it } from 'vitest';
import type { ChatEvent } from '@youyou/agent';
import { decodeAnthropicStream, decodeOpenAIStream } from '@youyou/providers';

const encoder = new TextEncoder();

async function decode(stream: AsyncGenerator<ChatEvent>): Promise<ChatEvent[]> {
  const events: ChatEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

function openAIChunks(...payloads: unknown[]): Uint8Array[] {
  return [...payloads.map((payload) => `data: ${JSON.stringify(payload)}\n\n`), 'data: [DONE]\n\n'].map(
    (text) => encoder.encode(text),
  );
}

describe('recorded Chat Completions streams', () => {
  it('separates tool calls that a server numbers all index 0 but gives distinct ids', async () => {
    const events = await decode(
      decodeOpenAIStream(
        openAIChunks(
          {
            choices: [
              {
                index: 0,
                delta: {
                  tool_calls: [{ index: 0, id: 'a', function: { name: 'one', arguments: '{"x":1}' } }],
                },
              },
            ],
          },
          {
            choices: [
              {
                index: 0,
                delta: { tool_calls: [{ index: 0, id: 'b', function: { name: 'two', arguments: '{}' } }] },
              },
            ],
          },
          { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
        ),
      ),
    );
    expect(events).toEqual([
      { type: 'tool_call', callId: 'a', toolName: 'one', arguments: '{"x":1}' },
      { type: 'tool_call', callId: 'b', toolName: 'two', arguments: '{}' },
      { type: 'done', finishReason: 'tool_calls' },
    ]);
  });

  it('makes up an id for a tool call that arrives without one', async () => {
    const events = await decode(
      decodeOpenAIStream(
        openAIChunks({
          choices: [
            {
              delta: { tool_calls: [{ index: 0, function: { name: 'now', arguments: '' } }] },
              finish_reason: 'tool_calls',
            },
          ],
        }),
      ),
    );
    expect(events[0]).toMatchObject({
      type: 'tool_call',
      toolName: 'now',
      arguments: '{}',
      callId: expect.stringMatching(/^call_0_/) as string,
    });
  });

  it('reads usage reported inside the choice (Moonshot) and cache hits reported by DeepSeek', async () => {
    const moonshot = await decode(
      decodeOpenAIStream(
        openAIChunks({
          choices: [
            {
              delta: { content: 'x' },
              finish_reason: 'stop',
              usage: { prompt_tokens: 9, completion_tokens: 2, cached_tokens: 4 },
            },
          ],
        }),
      ),
    );
    expect(moonshot.at(-1)).toEqual({
      type: 'done',
      finishReason: 'stop',
      usage: { inputTokens: 9, outputTokens: 2, cachedInputTokens: 4 },
    });
    const deepseek = await decode(
      decodeOpenAIStream(
        openAIChunks(
          { choices: [{ delta: { content: 'x' }, finish_reason: 'stop' }] },
          { choices: [], usage: { prompt_tokens: 50, completion_tokens: 3, prompt_cache_hit_tokens: 32 } },
        ),
      ),
    );
    expect(deepseek.at(-1)).toMatchObject({
      usage: { inputTokens: 50, outputTokens: 3, cachedInputTokens: 32 },
    });
  });

  it('treats a finish reason without [DONE] as the end of the reply', async () => {
    const events = await decode(
      decodeOpenAIStream([
        encoder.encode('data: {"choices":[{"delta":{"content":"hi"},"finish_reason":"length"}]}\n\n'),
      ]),
    );
    expect(events).toEqual([
      { type: 'text_delta', text: 'hi' },
      { type: 'done', finishReason: 'length' },
    ]);
  });

  it('ignores keep-alive comments and choices other than the first', async () => {
    const events = await decode(
      decodeOpenAIStream([
        encoder.encode(': OPENROUTER PROCESSING\n\n'),
        ...openAIChunks({
          choices: [
            { index: 1, delta: { content: 'other' } },
            { index: 0, delta: { content: 'mine' }, finish_reason: 'stop' },
          ],
        }),
      ]),
    );
    expect(events).toEqual([
      { type: 'text_delta', text: 'mine' },
      { type: 'done', finishReason: 'stop' },
    ]);
  });
});

describe('deltas that arrive in one network read', () => {
  it('are merged into one event per run of text or reasoning, in order', async () => {
    const frames = [
      { choices: [{ delta: { reasoning_content: 'Think ' } }] },
      { choices: [{ delta: { reasoning_content: 'hard.' } }] },
      { choices: [{ delta: { content: 'An' } }] },
      { choices: [{ delta: { content: 'swer' } }] },
      {
        choices: [
          { delta: { tool_calls: [{ index: 0, id: 'c', function: { name: 'now', arguments: '{}' } }] } },
        ],
      },
      { choices: [{ delta: { content: ' more' } }], usage: null },
      { choices: [{ delta: {}, finish_reason: 'tool_calls' }] },
    ];
    const oneRead = encoder.encode(
      frames.map((frame) => `data: ${JSON.stringify(frame)}\n\n`).join('') + 'data: [DONE]\n\n',
    );
    expect(await decode(decodeOpenAIStream([oneRead]))).toEqual([
      { type: 'reasoning_delta', text: 'Think hard.' },
      { type: 'text_delta', text: 'Answer more' },
      { type: 'tool_call', callId: 'c', toolName: 'now', arguments: '{}' },
      { type: 'done', finishReason: 'tool_calls' },
    ]);
  });
});

describe('recorded Messages streams', () => {
  function anthropicEvents(...payloads: { type: string }[]): Uint8Array[] {
    return payloads.map((payload) =>
      encoder.encode(`event: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`),
    );
  }

  it('keeps redacted thinking for the next request and uses the tool input when no delta came', async () => {
    const events = await decode(
      decodeAnthropicStream(
        anthropicEvents(
          { type: 'message_start', message: { usage: { input_tokens: 10, output_tokens: 1 } } } as {
            type: string;
          },
          {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'redacted_thinking', data: 'opaque' },
          } as { type: string },
          { type: 'content_block_stop', index: 0 } as { type: string },
          {
            type: 'content_block_start',
            index: 1,
            content_block: { type: 'tool_use', id: 't1', name: 'now', input: { zone: 'UTC' } },
          } as { type: string },
          { type: 'content_block_stop', index: 1 } as { type: string },
          { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 12 } } as {
            type: string;
          },
          { type: 'message_stop' },
        ),
        'recorded',
        'claude-x',
      ),
    );
    expect(events).toEqual([
      { type: 'tool_call', callId: 't1', toolName: 'now', arguments: '{"zone":"UTC"}' },
      {
        type: 'done',
        finishReason: 'tool_calls',
        usage: { inputTokens: 10, outputTokens: 12 },
        providerMetadata: {
          anthropic: { model: 'claude-x', thinking: [{ type: 'redacted_thinking', data: 'opaque' }] },
        },
      },
    ]);
  });

  it('ignores ping and event types it does not know', async () => {
    const events = await decode(
      decodeAnthropicStream(
        anthropicEvents(
          { type: 'ping' },
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } as {
            type: string;
          },
          { type: 'some_future_event' },
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'ok' } } as {
            type: string;
          },
          { type: 'content_block_delta', index: 0, delta: { type: 'citations_delta', citation: {} } } as {
            type: string;
          },
          { type: 'message_delta', delta: { stop_reason: 'end_turn' } } as { type: string },
          { type: 'message_stop' },
        ),
      ),
    );
    expect(events).toEqual([
      { type: 'text_delta', text: 'ok' },
      { type: 'done', finishReason: 'stop' },
    ]);
  });
});
