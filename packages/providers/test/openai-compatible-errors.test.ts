import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentError } from '@youyou/agent';
import type { ChatEvent } from '@youyou/agent';
import { openaiCompatible } from '@youyou/providers';
import { fakeTextReply, startFakeOpenAI } from '@youyou/testing';
import type { ContextLengthShape, FakeReply, FakeServer } from '@youyou/testing';
import { collect, fastRetry, lastEvent, textOf } from './helpers.ts';

let server: FakeServer | undefined;

afterEach(async () => {
  server?.assertDone();
  await server?.close();
  server = undefined;
});

async function setup(script: FakeReply[], options: Partial<Parameters<typeof openaiCompatible>[0]> = {}) {
  server = await startFakeOpenAI({ script });
  const provider = openaiCompatible({
    id: 'fake',
    baseURL: server.url,
    apiKey: 'sk-test',
    apiKeyHint: '(set FAKE_API_KEY)',
    models: [{ id: 'fake-model' }],
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

describe('OpenAI-compatible provider: errors', () => {
  it.each([401, 403] as const)(
    'answers HTTP %i with a final PROVIDER_ERROR that says to check the key, without retrying',
    async (status) => {
      const { server, provider } = await setup([{ type: 'unauthorized', status }]);
      const error = errorOf(await collect(provider));
      expect(error).toBeInstanceOf(AgentError);
      expect(error.code).toBe('PROVIDER_ERROR');
      expect(error.retryable).toBe(false);
      expect(error.message).toContain('Check your API key (set FAKE_API_KEY)');
      expect(error.message).toContain('Incorrect API key provided');
      expect(server.chatRequests).toHaveLength(1);
    },
  );

  it('retries a 429 and streams the reply that follows, yielding nothing from the failed attempt', async () => {
    const { server, provider } = await setup([{ type: 'rate_limited' }, fakeTextReply('after the wait')]);
    const events = await collect(provider);
    expect(events.map((event) => event.type)).toEqual(['retry', 'text_delta', 'done']);
    expect(events[0]).toMatchObject({
      type: 'retry',
      attempt: 1,
      maxAttempts: 2,
      error: { code: 'PROVIDER_ERROR', retryable: true },
    });
    expect(textOf(events)).toBe('after the wait');
    expect(server.chatRequests).toHaveLength(2);
  });

  it('waits as long as Retry-After asks before retrying', async () => {
    const { server, provider } = await setup([
      { type: 'rate_limited', retryAfterSeconds: 1 },
      fakeTextReply('ok'),
    ]);
    await collect(provider);
    const [first, second] = server.chatRequests;
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(950);
  });

  it('gives up after the configured retries with a retryable error naming the attempts', async () => {
    const { server, provider } = await setup(
      [{ type: 'server_error' }, { type: 'overloaded' }, { type: 'server_error', status: 502 }],
      { retry: { ...fastRetry, maxRetries: 2 } },
    );
    const error = errorOf(await collect(provider));
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('HTTP 502');
    expect(error.message).toContain('gave up after 3 attempts');
    expect(server.chatRequests).toHaveLength(3);
  });

  it('returns a retryable error at once when Retry-After is longer than it will wait', async () => {
    const { server, provider } = await setup([{ type: 'rate_limited', retryAfterSeconds: 3600 }]);
    const error = errorOf(await collect(provider));
    expect(error.retryable).toBe(true);
    expect(error.details).toMatchObject({ status: 429, retryAfterMs: 3_600_000 });
    expect(server.chatRequests).toHaveLength(1);
  });

  it.each<ContextLengthShape>(['openai', 'vllm', 'llama.cpp', 'moonshot'])(
    'turns the %s context-length error into the typed context_length_exceeded signal',
    async (shape) => {
      const { server, provider } = await setup([{ type: 'context_length_exceeded', shape }]);
      const events = await collect(provider);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ type: 'context_length_exceeded' });
      expect(server.chatRequests).toHaveLength(1);
    },
  );

  it('keeps the partial text and ends with a retryable error when the connection dies mid-stream, without retrying', async () => {
    const { server, provider } = await setup([
      {
        type: 'stream',
        steps: [{ type: 'text', text: 'Partial ' }, { type: 'text', text: 'answer' }, { type: 'cut' }],
      },
    ]);
    const events = await collect(provider);
    expect(textOf(events)).toBe('Partial answer');
    const error = errorOf(events);
    expect(error.code).toBe('PROVIDER_ERROR');
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('broke off');
    expect(server.chatRequests).toHaveLength(1);
  });

  it('reports a stream that ends cleanly but before the reply finished as an error after the partial text', async () => {
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

  it('retries a connection that dies before anything was streamed', async () => {
    const { server, provider } = await setup([
      { type: 'stream', steps: [{ type: 'cut' }] },
      fakeTextReply('second try'),
    ]);
    expect(textOf(await collect(provider))).toBe('second try');
    expect(server.chatRequests).toHaveLength(2);
  });

  it('ends with a clear error, not a crash, when a chunk is not valid JSON', async () => {
    const { provider } = await setup([
      {
        type: 'stream',
        steps: [
          { type: 'text', text: 'Before' },
          { type: 'raw', data: 'data: {"choices":[{"delta":\n\n' },
        ],
      },
    ]);
    const events = await collect(provider);
    expect(textOf(events)).toBe('Before');
    const error = errorOf(events);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('not valid JSON');
    expect(error.message).toContain('{\\"choices\\"');
  });

  it('reports an error object sent inside the stream, as OpenRouter and vLLM do', async () => {
    const { provider } = await setup([
      {
        type: 'stream',
        steps: [
          { type: 'text', text: 'So far' },
          { type: 'stream_error', message: 'Upstream provider failed', code: 502 },
        ],
      },
    ]);
    const events = await collect(provider);
    expect(textOf(events)).toBe('So far');
    const error = errorOf(events);
    expect(error.message).toContain('Upstream provider failed');
    expect(error.retryable).toBe(true);
  });

  it('treats a context-length error inside the stream as the typed signal', async () => {
    const { provider } = await setup([
      {
        type: 'stream',
        steps: [{ type: 'stream_error', message: "This endpoint's maximum context length is 8192 tokens." }],
      },
    ]);
    expect(lastEvent(await collect(provider))).toMatchObject({ type: 'context_length_exceeded' });
  });

  it('cancels the HTTP request at once when the signal aborts mid-stream, keeping what streamed', async () => {
    const { server, provider } = await setup([
      {
        type: 'stream',
        stepDelayMs: 200,
        steps: Array.from({ length: 200 }, () => ({ type: 'text' as const, text: 'tick ' })),
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
    expect(textOf(events)).toBe('tick ');
    expect(errorOf(events).code).toBe('REQUEST_CANCELLED');
    expect(await server.waitForClose(0)).toBe(true);
  });

  it('closes the connection when the consumer stops iterating early', async () => {
    const { server, provider } = await setup([
      {
        type: 'stream',
        stepDelayMs: 200,
        steps: Array.from({ length: 200 }, () => ({ type: 'text' as const, text: 'x' })),
      },
    ]);
    for await (const event of provider.chat(
      { model: 'fake-model', systemPrompt: '', messages: [], tools: [] },
      { signal: new AbortController().signal },
    )) {
      if (event.type === 'text_delta') break;
    }
    expect(await server.waitForClose(0)).toBe(true);
  });

  it('stops waiting out a backoff when the signal aborts', async () => {
    const { server, provider } = await setup([{ type: 'rate_limited', retryAfterSeconds: 30 }], {
      retry: { maxRetryAfterMs: 60_000 },
    });
    const controller = new AbortController();
    const pending = collect(provider, undefined, controller.signal);
    while (server.chatRequests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await server.waitForClose(0);
    controller.abort();
    expect(errorOf(await pending).code).toBe('REQUEST_CANCELLED');
  });

  it('says the server cannot be reached, as a retryable error, when nothing listens', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const provider = openaiCompatible({
      id: 'nothing',
      baseURL: `http://127.0.0.1:${port}/v1`,
      models: [{ id: 'fake-model' }],
      retry: { ...fastRetry, maxRetries: 1 },
    });
    const error = errorOf(await collect(provider));
    expect(error.retryable).toBe(true);
    expect(error.message).toContain(`could not reach http://127.0.0.1:${port}`);
    expect(error.message).toContain('gave up after 2 attempts');
  });
});
