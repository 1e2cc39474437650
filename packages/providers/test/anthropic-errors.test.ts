import { afterEach, describe, expect, it } from 'vitest';
import type { AgentError, ChatEvent } from '@youyou/agent';
import { anthropic } from '@youyou/providers';
import { fakeTextReply, startFakeAnthropic } from '@youyou/testing';
import type { FakeReply, FakeServer } from '@youyou/testing';
import { collect, fastRetry, lastEvent, textOf } from './helpers.ts';

let server: FakeServer | undefined;

afterEach(async () => {
  server?.assertDone();
  await server?.close();
  server = undefined;
});

async function setup(script: FakeReply[], options: Parameters<typeof anthropic>[0] = {}) {
  server = await startFakeAnthropic({ script });
  const provider = anthropic({
    baseURL: server.url,
    apiKey: 'sk-ant-test',
    models: [{ id: 'claude-sonnet-4-5', alias: 'fake-model' }],
    retry: fastRetry,
    ...options,
  });
  return { server, provider };
}

function errorOf(events: readonly ChatEvent[]): AgentError {
  const last = lastEvent(events);
  if (last.type !== 'error') throw new Error(`expected an error event, got ${last.type}`);
  return last.error;
}

describe('Anthropic provider: errors', () => {
  it('answers 401 with a final error that says to check ANTHROPIC_API_KEY', async () => {
    const { server, provider } = await setup([{ type: 'unauthorized' }]);
    const error = errorOf(await collect(provider));
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('invalid x-api-key');
    expect(error.message).toContain('Check your API key (ANTHROPIC_API_KEY');
    expect(server.chatRequests).toHaveLength(1);
  });

  it('answers 403 without retrying', async () => {
    const { server, provider } = await setup([{ type: 'unauthorized', status: 403 }]);
    expect(errorOf(await collect(provider)).retryable).toBe(false);
    expect(server.chatRequests).toHaveLength(1);
  });

  it('retries 429 and 529 overloaded, then streams the reply', async () => {
    const { server, provider } = await setup([
      { type: 'rate_limited', retryAfterSeconds: 0 },
      { type: 'overloaded' },
      fakeTextReply('finally'),
    ]);
    const events = await collect(provider);
    expect(events.map((event) => event.type)).toEqual(['retry', 'retry', 'text_delta', 'done']);
    expect(events.slice(0, 2).map((event) => event.type === 'retry' && event.attempt)).toEqual([1, 2]);
    expect(server.chatRequests).toHaveLength(3);
  });

  it('retries an overloaded_error event that opens the stream before anything was yielded', async () => {
    const { server, provider } = await setup([
      { type: 'stream', steps: [{ type: 'stream_error', message: 'Overloaded' }] },
      fakeTextReply('recovered'),
    ]);
    expect(textOf(await collect(provider))).toBe('recovered');
    expect(server.chatRequests).toHaveLength(2);
  });

  it('ends with a retryable error after partial text when an error event arrives mid-stream, without retrying', async () => {
    const { server, provider } = await setup([
      {
        type: 'stream',
        steps: [
          { type: 'text', text: 'Some text' },
          { type: 'stream_error', message: 'Overloaded' },
        ],
      },
    ]);
    const events = await collect(provider);
    expect(textOf(events)).toBe('Some text');
    const error = errorOf(events);
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('Overloaded');
    expect(server.chatRequests).toHaveLength(1);
  });

  it.each(['anthropic-prompt-too-long', 'anthropic-input-and-max-tokens'] as const)(
    'turns the %s error into the typed context_length_exceeded signal',
    async (shape) => {
      const { provider } = await setup([{ type: 'context_length_exceeded', shape }]);
      const events = await collect(provider);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ type: 'context_length_exceeded' });
    },
  );

  it('keeps partial text and reports the break when the connection dies mid-stream', async () => {
    const { provider } = await setup([
      {
        type: 'stream',
        steps: [{ type: 'reasoning', text: 'Hmm' }, { type: 'text', text: 'Part' }, { type: 'cut' }],
      },
    ]);
    const events = await collect(provider);
    expect(textOf(events)).toBe('Part');
    expect(errorOf(events).message).toContain('broke off');
  });

  it('reports a stream that ends before message_stop', async () => {
    const { provider } = await setup([
      {
        type: 'stream',
        steps: [
          { type: 'text', text: 'Half' },
          { type: 'cut', mode: 'end' },
        ],
      },
    ]);
    const events = await collect(provider);
    expect(textOf(events)).toBe('Half');
    expect(errorOf(events).message).toContain('ended before the reply was complete');
  });

  it('ends with a clear error when an event holds malformed JSON', async () => {
    const { provider } = await setup([
      {
        type: 'stream',
        steps: [
          { type: 'text', text: 'Ok' },
          { type: 'raw', data: 'event: content_block_delta\ndata: {"type":\n\n' },
        ],
      },
    ]);
    const events = await collect(provider);
    expect(textOf(events)).toBe('Ok');
    expect(errorOf(events).message).toContain('not valid JSON');
  });

  it('cancels the HTTP request at once when the signal aborts', async () => {
    const { server, provider } = await setup([
      {
        type: 'stream',
        stepDelayMs: 200,
        steps: Array.from({ length: 100 }, () => ({ type: 'text' as const, text: 'slow ' })),
      },
    ]);
    const controller = new AbortController();
    const events: ChatEvent[] = [];
    for await (const event of provider.chat(
      { model: 'fake-model', systemPrompt: '', messages: [], tools: [] },
      { signal: controller.signal },
    )) {
      events.push(event);
      if (event.type === 'text_delta') controller.abort();
    }
    expect(errorOf(events).code).toBe('REQUEST_CANCELLED');
    expect(await server.waitForClose(0)).toBe(true);
  });
});
