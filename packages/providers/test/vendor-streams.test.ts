import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentError, ChatEvent } from '@youyou/agent';
import { anthropic, decodeAnthropicStream, decodeOpenAIStream, openaiCompatible } from '@youyou/providers';
import { fakeTextReply, startFakeAnthropic, startFakeOpenAI } from '@youyou/testing';
import type { FakeReply, FakeServer } from '@youyou/testing';
import { collect, fastRetry, lastEvent, textOf } from './helpers.ts';

// Fixtures are written in the vendors' recorded wire shapes (ids, `system_fingerprint`,
// `logprobs: null`, Azure's `content_filter_results`, Anthropic's named events and `ping`s), as
// their SDKs' own stream fixtures record them.

const encoder = new TextEncoder();

function sse(...lines: string[]): Uint8Array[] {
  return lines.map((line) => encoder.encode(line));
}

async function decoded(stream: AsyncGenerator<ChatEvent>): Promise<ChatEvent[]> {
  const events: ChatEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

function refusalOf(events: readonly ChatEvent[]): string {
  return events.map((event) => (event.type === 'refusal_delta' ? event.text : '')).join('');
}

function errorOf(events: readonly ChatEvent[]): AgentError {
  const last = lastEvent(events);
  if (last.type !== 'error') throw new Error(`expected an error event, got ${JSON.stringify(last)}`);
  return last.error;
}

function chunk(id: string, choice: Record<string, unknown>): string {
  return `data: ${JSON.stringify({
    id,
    object: 'chat.completion.chunk',
    created: 1727346163,
    model: 'gpt-4o-2024-08-06',
    system_fingerprint: 'fp_5050236cbd',
    choices: [{ index: 0, logprobs: null, finish_reason: null, ...choice }],
  })}\n\n`;
}

let server: FakeServer | undefined;

afterEach(async () => {
  server?.assertDone();
  await server?.close();
  server = undefined;
});

async function openAI(script: FakeReply[], baseSuffix = '') {
  server = await startFakeOpenAI({ script });
  return openaiCompatible({
    id: 'fake',
    baseURL: server.url + baseSuffix,
    apiKey: 'sk-test',
    models: [{ id: 'fake-model' }],
    retry: fastRetry,
  });
}

async function claude(script: FakeReply[]) {
  server = await startFakeAnthropic({ script });
  return anthropic({
    baseURL: server.url,
    apiKey: 'test',
    models: [{ id: 'fake-model' }],
    retry: fastRetry,
  });
}

describe('OpenAI refusals and finish reasons', () => {
  it('a delta.refusal stream is surfaced as refusal text and the reply ends as a refusal', async () => {
    const id = 'chatcmpl-ABfvvX7eB1KsfeZj8VcF3z7G7SbaA';
    const events = await decoded(
      decodeOpenAIStream(
        sse(
          chunk(id, { delta: { role: 'assistant', content: null, refusal: '' } }),
          chunk(id, { delta: { refusal: "I'm" } }),
          chunk(id, { delta: { refusal: ' sorry, I cannot' } }),
          chunk(id, { delta: { refusal: ' help with that.' } }),
          chunk(id, { delta: {}, finish_reason: 'stop' }),
          'data: [DONE]\n\n',
        ),
      ),
    );
    expect(refusalOf(events)).toBe("I'm sorry, I cannot help with that.");
    expect(textOf(events)).toBe('');
    expect(lastEvent(events)).toMatchObject({ type: 'done', finishReason: 'refusal' });
  });

  it('the fake server streams a refusal the same way and the provider surfaces it', async () => {
    const provider = await openAI([
      { type: 'stream', steps: [{ type: 'refusal', text: 'I cannot do that.' }] },
    ]);
    const events = await collect(provider);
    expect(refusalOf(events)).toBe('I cannot do that.');
    expect(lastEvent(events)).toMatchObject({ type: 'done', finishReason: 'refusal' });
  });

  it('finish_reason length keeps a truncated tool call as it came (not valid JSON) and the reply ends as length', async () => {
    const id = 'chatcmpl-len';
    const events = await decoded(
      decodeOpenAIStream(
        sse(
          chunk(id, {
            delta: {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  index: 0,
                  id: 'call_9Q',
                  type: 'function',
                  function: { name: 'write_file', arguments: '' },
                },
              ],
            },
          }),
          chunk(id, {
            delta: { tool_calls: [{ index: 0, function: { arguments: '{"path":"a.txt","con' } }] },
          }),
          chunk(id, { delta: {}, finish_reason: 'length' }),
          'data: [DONE]\n\n',
        ),
      ),
    );
    const call = events.find((event) => event.type === 'tool_call');
    expect(call).toMatchObject({
      callId: 'call_9Q',
      toolName: 'write_file',
      arguments: '{"path":"a.txt","con',
    });
    expect(() => JSON.parse((call as { arguments: string }).arguments) as unknown).toThrow();
    expect(lastEvent(events)).toMatchObject({ type: 'done', finishReason: 'length' });
  });

  it('a tool call cut off before any argument arrived is not given {} arguments on length', async () => {
    const events = await decoded(
      decodeOpenAIStream(
        sse(
          chunk('c', {
            delta: { tool_calls: [{ index: 0, id: 'call_1', function: { name: 'rm', arguments: '' } }] },
          }),
          chunk('c', { delta: {}, finish_reason: 'length' }),
          'data: [DONE]\n\n',
        ),
      ),
    );
    expect(events.find((event) => event.type === 'tool_call')).toMatchObject({ arguments: '' });
  });

  it('finish_reason content_filter (Azure shape) ends the reply as content_filter with the text so far', async () => {
    const events = await decoded(
      decodeOpenAIStream(
        sse(
          'data: {"choices":[],"created":0,"id":"","model":"","object":"","prompt_filter_results":[{"prompt_index":0,"content_filter_results":{"hate":{"filtered":false,"severity":"safe"}}}]}\n\n',
          chunk('az', {
            delta: { content: 'Here is' },
            content_filter_results: { hate: { filtered: false, severity: 'safe' } },
          }),
          chunk('az', {
            delta: {},
            finish_reason: 'content_filter',
            content_filter_results: { violence: { filtered: true, severity: 'high' } },
          }),
          'data: [DONE]\n\n',
        ),
      ),
    );
    expect(textOf(events)).toBe('Here is');
    expect(lastEvent(events)).toMatchObject({ type: 'done', finishReason: 'content_filter' });
  });
});

describe('OpenAI-compatible failures', () => {
  it('a 429 insufficient_quota is a billing failure: not retried, not retryable, and said so', async () => {
    const provider = await openAI([{ type: 'insufficient_quota' }]);
    const events = await collect(provider);
    const error = errorOf(events);
    expect(server?.chatRequests).toHaveLength(1);
    expect(events.some((event) => event.type === 'retry')).toBe(false);
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/billing/i);
    expect(error.message).toContain('You exceeded your current quota');
    expect(error.details).toMatchObject({ status: 429, code: 'insufficient_quota', billing: true });
  });

  it('an error carries the vendor request id (x-request-id) in its details', async () => {
    const provider = await openAI([{ type: 'unauthorized' }]);
    const error = errorOf(await collect(provider));
    expect(error.details['requestId']).toMatch(/^req_[0-9a-f]+$/);
  });

  it('a 200 with a plain JSON body (stream: true ignored) is read as the complete reply, not retried', async () => {
    const provider = await openAI([
      { ...fakeTextReply('Hello from a server that does not stream'), ignoreStream: true },
      {
        type: 'stream',
        ignoreStream: true,
        steps: [{ type: 'tool_call', name: 'now', arguments: { zone: 'UTC' }, id: 'call_x' }],
      },
    ]);
    const first = await collect(provider);
    expect(textOf(first)).toBe('Hello from a server that does not stream');
    expect(lastEvent(first)).toMatchObject({
      type: 'done',
      finishReason: 'stop',
      usage: { inputTokens: expect.any(Number) },
    });
    const second = await collect(provider);
    expect(second).toContainEqual({
      type: 'tool_call',
      callId: 'call_x',
      toolName: 'now',
      arguments: '{"zone":"UTC"}',
    });
    expect(lastEvent(second)).toMatchObject({ type: 'done', finishReason: 'tool_calls' });
    expect(server?.chatRequests).toHaveLength(2);
  });

  it('a base URL without /v1 gets a 404 with a hint to add /v1', async () => {
    // A Go server's bare 404 (Ollama, LocalAI): text/plain "404 page not found".
    const bare = createServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('404 page not found');
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    try {
      const baseURL = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
      const provider = openaiCompatible({
        id: 'ollama',
        baseURL,
        models: [{ id: 'fake-model' }],
        retry: fastRetry,
      });
      const error = errorOf(await collect(provider));
      expect(error.message).toContain('404 page not found');
      expect(error.message).toContain(`try ${baseURL}/v1`);
      expect(error.retryable).toBe(false);
    } finally {
      await new Promise<void>((resolve) => bare.close(() => resolve()));
    }
  });

  it('an older llama.cpp `error:` line inside a 200 stream keeps its message', async () => {
    const events = await decoded(
      decodeOpenAIStream(
        sse(
          chunk('llama', { delta: { content: 'Partial' } }),
          'error: {"code":500,"message":"slot 0 is unavailable: context shift is disabled","type":"server_error"}\n\n',
        ),
      ),
    );
    expect(textOf(events)).toBe('Partial');
    expect(errorOf(events).message).toContain('slot 0 is unavailable: context shift is disabled');
  });

  it('an `error:` line split across network reads, with its JSON in the {"error":…} shape, keeps its message', async () => {
    const events = await decoded(
      decodeOpenAIStream(
        sse(
          'err',
          'or: {"error":{"code":503,"message":"Loading mo',
          'del","type":"unavailable_error"}}\n',
          '\n',
        ),
      ),
    );
    expect(errorOf(events).message).toContain('Loading model');
  });

  it('"error:" inside a data line is text, not an error', async () => {
    const events = await decoded(
      decodeOpenAIStream(
        sse(
          chunk('t', { delta: { content: 'a\nerror: none' } }),
          chunk('t', { delta: {}, finish_reason: 'stop' }),
          'data: [DONE]\n\n',
        ),
      ),
    );
    expect(textOf(events)).toBe('a\nerror: none');
    expect(lastEvent(events)).toMatchObject({ type: 'done' });
  });
});

describe('Anthropic', () => {
  function event(type: string, payload: Record<string, unknown>): string {
    return `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;
  }

  const start = event('message_start', {
    message: {
      id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 472, output_tokens: 2 },
    },
  });

  it('thinking_tokens in the usage are reported as reasoning tokens', async () => {
    const events = await decoded(
      decodeAnthropicStream(
        sse(
          start,
          event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
          event('ping', {}),
          event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hi' } }),
          event('content_block_stop', { index: 0 }),
          event('message_delta', {
            delta: { stop_reason: 'end_turn', stop_sequence: null },
            usage: { output_tokens: 90, output_tokens_details: { thinking_tokens: 64 } },
          }),
          event('message_stop', {}),
        ),
      ),
    );
    expect(lastEvent(events)).toMatchObject({
      type: 'done',
      usage: { inputTokens: 472, outputTokens: 90, reasoningTokens: 64 },
    });
  });

  it('stop_reason max_tokens in the middle of a tool_use keeps its partial input and ends as length', async () => {
    const events = await decoded(
      decodeAnthropicStream(
        sse(
          start,
          event('content_block_start', {
            index: 0,
            content_block: { type: 'tool_use', id: 'toolu_01', name: 'write_file', input: {} },
          }),
          event('content_block_delta', {
            index: 0,
            delta: { type: 'input_json_delta', partial_json: '{"path": "a' },
          }),
          event('content_block_stop', { index: 0 }),
          event('content_block_start', {
            index: 1,
            content_block: { type: 'tool_use', id: 'toolu_02', name: 'rm', input: {} },
          }),
          event('content_block_stop', { index: 1 }),
          event('message_delta', {
            delta: { stop_reason: 'max_tokens', stop_sequence: null },
            usage: { output_tokens: 16 },
          }),
          event('message_stop', {}),
        ),
      ),
    );
    const calls = events.filter((candidate) => candidate.type === 'tool_call');
    expect(calls).toEqual([
      { type: 'tool_call', callId: 'toolu_01', toolName: 'write_file', arguments: '{"path": "a' },
      { type: 'tool_call', callId: 'toolu_02', toolName: 'rm', arguments: '' },
    ]);
    expect(lastEvent(events)).toMatchObject({ type: 'done', finishReason: 'length' });
  });

  it('stop_reason refusal ends the reply as a refusal', async () => {
    const provider = await claude([
      { type: 'stream', steps: [{ type: 'refusal', text: 'I can’t help with that.' }] },
    ]);
    const events = await collect(provider);
    expect(textOf(events)).toBe('I can’t help with that.');
    expect(lastEvent(events)).toMatchObject({ type: 'done', finishReason: 'refusal' });
  });

  it('an HTTP error keeps the Anthropic error type and the request-id in its details', async () => {
    const provider = await claude([{ type: 'overloaded' }, { type: 'overloaded' }, { type: 'overloaded' }]);
    const error = errorOf(await collect(provider));
    expect(error.details).toMatchObject({ status: 529, type: 'overloaded_error' });
    expect(error.details['requestId']).toMatch(/^req_/);
  });

  it('an error event inside the stream keeps its type in the details', async () => {
    const events = await decoded(
      decodeAnthropicStream(
        sse(
          start,
          event('error', {
            error: {
              type: 'invalid_request_error',
              message: 'messages: text content blocks must be non-empty',
            },
          }),
        ),
      ),
    );
    const error = errorOf(events);
    expect(error.message).toContain('text content blocks must be non-empty');
    expect(error.details).toMatchObject({ type: 'invalid_request_error' });
  });

  it('"credit balance is too low" is a billing failure, not retried', async () => {
    const provider = await claude([{ type: 'insufficient_quota' }]);
    const error = errorOf(await collect(provider));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/billing/i);
    expect(error.details).toMatchObject({ status: 400, type: 'invalid_request_error', billing: true });
  });

  it('a 200 with a whole Messages JSON body is read as the complete reply, tool calls and thinking included', async () => {
    const provider = await claude([
      {
        type: 'stream',
        ignoreStream: true,
        steps: [
          { type: 'reasoning', text: 'Think.' },
          { type: 'text', text: 'Calling.' },
          { type: 'tool_call', name: 'now', arguments: { zone: 'UTC' }, id: 'toolu_9' },
          { type: 'usage', inputTokens: 10, outputTokens: 5, reasoningTokens: 2 },
        ],
      },
    ]);
    const events = await collect(provider);
    expect(textOf(events)).toBe('Calling.');
    expect(events).toContainEqual({ type: 'reasoning_delta', text: 'Think.' });
    expect(events).toContainEqual({
      type: 'tool_call',
      callId: 'toolu_9',
      toolName: 'now',
      arguments: '{"zone":"UTC"}',
    });
    expect(lastEvent(events)).toMatchObject({
      type: 'done',
      finishReason: 'tool_calls',
      usage: { inputTokens: 10, outputTokens: 5, reasoningTokens: 2 },
    });
  });

  it('a base URL ending in /v1 gets a 404 with a hint to drop it', async () => {
    server = await startFakeAnthropic({});
    const provider = anthropic({
      baseURL: `${server.url}/v1`,
      apiKey: 'test',
      models: [{ id: 'fake-model' }],
      retry: fastRetry,
    });
    const error = errorOf(await collect(provider));
    expect(error.message).toContain('without /v1');
  });
});

describe('the fake servers speak the vendors’ non-streamed format and headers', () => {
  it('OpenAI: stream false gets a chat.completion body and an x-request-id header', async () => {
    server = await startFakeOpenAI({ script: [fakeTextReply('Hel', 'lo')] });
    const response = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-x', stream: false, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    expect(await response.json()).toMatchObject({
      object: 'chat.completion',
      model: 'gpt-x',
      choices: [
        { index: 0, message: { role: 'assistant', content: 'Hello', refusal: null }, finish_reason: 'stop' },
      ],
      usage: { prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) },
    });
  });

  it('Anthropic: stream false gets a message body and a request-id header; streams carry it too', async () => {
    server = await startFakeAnthropic({ script: [fakeTextReply('Hi'), fakeTextReply('Streamed')] });
    const whole = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'claude-x',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    });
    expect(whole.headers.get('request-id')).toMatch(/^req_/);
    expect(await whole.json()).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'Hi' }],
      stop_reason: 'end_turn',
    });
    const streamed = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'claude-x',
        max_tokens: 10,
        stream: true,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    });
    expect(streamed.headers.get('content-type')).toContain('text/event-stream');
    expect(streamed.headers.get('request-id')).toMatch(/^req_/);
    expect(await streamed.text()).toContain('event: message_stop');
  });
});
