import { afterEach, describe, expect, it } from 'vitest';
import { openaiCompatible } from '@youyou/providers';
import { fakeTextReply, startFakeOpenAI } from '@youyou/testing';
import type { FakeReply, FakeServer } from '@youyou/testing';
import {
  bodyOf,
  chatRequest,
  collect,
  fastRetry,
  lastEvent,
  reasoningOf,
  textOf,
  userText,
} from './helpers.ts';

let server: FakeServer | undefined;

afterEach(async () => {
  server?.assertDone();
  await server?.close();
  server = undefined;
});

async function setup(script: FakeReply[], options: Partial<Parameters<typeof openaiCompatible>[0]> = {}) {
  server = await startFakeOpenAI({ script, apiKey: 'sk-test' });
  const provider = openaiCompatible({
    id: 'fake',
    baseURL: server.url,
    apiKey: 'sk-test',
    models: [{ id: 'fake-model' }],
    retry: fastRetry,
    ...options,
  });
  return { server, provider };
}

describe('OpenAI-compatible provider: streaming', () => {
  it('streams text deltas in order as they arrive and ends with done and the finish reason', async () => {
    const { provider } = await setup([{ ...fakeTextReply('Hel', 'lo, ', 'world'), stepDelayMs: 30 }]);
    const events = await collect(provider);
    expect(events.filter((event) => event.type === 'text_delta').map((event) => event.text)).toEqual([
      'Hel',
      'lo, ',
      'world',
    ]);
    expect(lastEvent(events)).toMatchObject({ type: 'done', finishReason: 'stop' });
  });

  it('sends a streaming request with the bearer key, the system prompt first and usage requested', async () => {
    const { server, provider } = await setup([fakeTextReply('ok')]);
    await collect(provider);
    const request = server.chatRequests[0];
    expect(request?.headers['authorization']).toBe('Bearer sk-test');
    expect(request?.body).toMatchObject({
      model: 'fake-model',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Hello' },
      ],
    });
  });

  it('reports usage from the final chunk, with cached and reasoning tokens', async () => {
    const { provider } = await setup([
      {
        type: 'stream',
        steps: [
          { type: 'text', text: 'ok' },
          { type: 'usage', inputTokens: 120, outputTokens: 7, cachedInputTokens: 100, reasoningTokens: 3 },
        ],
      },
    ]);
    expect(lastEvent(await collect(provider))).toEqual({
      type: 'done',
      finishReason: 'stop',
      usage: { inputTokens: 120, outputTokens: 7, cachedInputTokens: 100, reasoningTokens: 3 },
    });
  });

  it('leaves stream_options out when streamUsage is off, and then reports no usage', async () => {
    const { server, provider } = await setup([fakeTextReply('ok')], { streamUsage: false });
    const events = await collect(provider);
    expect(bodyOf(server.chatRequests)).not.toHaveProperty('stream_options');
    expect(lastEvent(events)).toEqual({ type: 'done', finishReason: 'stop' });
  });

  it('streams reasoning from reasoning_content and from reasoning', async () => {
    const { provider } = await setup([
      {
        type: 'stream',
        steps: [
          { type: 'reasoning', text: 'Think' },
          { type: 'reasoning', text: 'ing.' },
          { type: 'text', text: 'Done' },
        ],
      },
      {
        type: 'stream',
        reasoningField: 'reasoning',
        steps: [
          { type: 'reasoning', text: 'Hmm.' },
          { type: 'text', text: 'Yes' },
        ],
      },
    ]);
    const first = await collect(provider);
    expect(reasoningOf(first)).toBe('Thinking.');
    expect(textOf(first)).toBe('Done');
    const second = await collect(provider);
    expect(reasoningOf(second)).toBe('Hmm.');
    expect(textOf(second)).toBe('Yes');
  });

  it('assembles several tool calls from argument fragments split across chunks, by index', async () => {
    const { provider } = await setup([
      {
        type: 'stream',
        steps: [
          { type: 'text', text: 'Checking.' },
          {
            type: 'tool_call',
            id: 'call_a',
            name: 'read_file',
            arguments: { path: 'src/说明.md', limit: 40 },
            fragments: 7,
          },
          { type: 'tool_call', id: 'call_b', name: 'current_time', arguments: {}, fragments: 1 },
        ],
      },
    ]);
    const events = await collect(provider);
    const calls = events.filter((event) => event.type === 'tool_call');
    expect(calls).toEqual([
      {
        type: 'tool_call',
        callId: 'call_a',
        toolName: 'read_file',
        arguments: '{"path":"src/说明.md","limit":40}',
      },
      { type: 'tool_call', callId: 'call_b', toolName: 'current_time', arguments: '{}' },
    ]);
    expect(lastEvent(events)).toMatchObject({ type: 'done', finishReason: 'tool_calls' });
  });

  it('keeps multi-byte UTF-8 intact when the server splits every byte into its own write', async () => {
    const text = '你好，世界 🎉 naïve — ok';
    const { provider } = await setup([{ type: 'stream', splitBytes: 1, steps: [{ type: 'text', text }] }]);
    expect(textOf(await collect(provider))).toBe(text);
  });

  it('sends tool definitions, temperature, max_tokens and reasoning_effort when set', async () => {
    const { server, provider } = await setup([fakeTextReply('ok')]);
    const parameters = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
    await collect(
      provider,
      chatRequest({
        tools: [{ name: 'read_file', description: 'Reads a file.', parameters }],
        temperature: 0.2,
        maxTokens: 512,
        reasoningEffort: 'high',
      }),
    );
    expect(bodyOf(server.chatRequests)).toMatchObject({
      tools: [
        { type: 'function', function: { name: 'read_file', description: 'Reads a file.', parameters } },
      ],
      temperature: 0.2,
      max_tokens: 512,
      reasoning_effort: 'high',
    });
  });

  it('omits temperature, max_tokens and reasoning_effort when unset, and reasoning_effort for non-reasoning models', async () => {
    const { server, provider } = await setup([fakeTextReply('a'), fakeTextReply('b')], {
      models: [{ id: 'fake-model', capabilities: { reasoning: false } }],
      maxTokensField: 'max_completion_tokens',
    });
    await collect(provider);
    await collect(provider, chatRequest({ reasoningEffort: 'low', maxTokens: 9 }));
    const first = bodyOf(server.chatRequests, 0);
    expect(first).not.toHaveProperty('temperature');
    expect(first).not.toHaveProperty('max_tokens');
    expect(first).not.toHaveProperty('reasoning_effort');
    expect(first).not.toHaveProperty('tools');
    const second = bodyOf(server.chatRequests, 1);
    expect(second).not.toHaveProperty('reasoning_effort');
    expect(second).toMatchObject({ max_completion_tokens: 9 });
  });

  it('sends images as data URLs and files as text blocks', async () => {
    const { server, provider } = await setup([fakeTextReply('ok')]);
    await collect(
      provider,
      chatRequest({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
              {
                type: 'file',
                path: '/work/notes.md',
                name: 'notes.md',
                mediaType: 'text/markdown',
                text: '# Notes',
              },
            ],
          },
        ],
      }),
    );
    const messages = bodyOf(server.chatRequests)['messages'] as unknown[];
    expect(messages[1]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'What is this?' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        {
          type: 'text',
          text: '<file name="notes.md" path="/work/notes.md" media-type="text/markdown">\n# Notes\n</file>',
        },
      ],
    });
  });

  it('maps system, user, assistant and tool messages, mid-conversation system messages included', async () => {
    const { server, provider } = await setup([fakeTextReply('ok')]);
    await collect(
      provider,
      chatRequest({
        messages: [
          userText('What time is it?'),
          {
            role: 'assistant',
            content: '',
            reasoning: 'Use the clock.',
            status: 'complete',
            toolCalls: [{ callId: 'call_1', toolName: 'current_time', arguments: '' }],
          },
          { role: 'tool', callId: 'call_1', toolName: 'current_time', content: '12:00', isError: false },
          { role: 'system', content: 'Summary of earlier turns.' },
          { role: 'assistant', content: 'Noon.', status: 'complete', toolCalls: [] },
          userText('Thanks'),
        ],
      }),
    );
    expect(bodyOf(server.chatRequests)['messages']).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'What time is it?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'current_time', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '12:00' },
      { role: 'system', content: 'Summary of earlier turns.' },
      { role: 'assistant', content: 'Noon.' },
      { role: 'user', content: 'Thanks' },
    ]);
  });

  it('marks a failed tool result in its text, since a Chat Completions tool message has no error flag', async () => {
    const { server, provider } = await setup([fakeTextReply('ok')]);
    const refusal = 'Access denied - path outside allowed directories: /etc/passwd';
    await collect(
      provider,
      chatRequest({
        messages: [
          userText('Read /etc/passwd'),
          {
            role: 'assistant',
            content: '',
            status: 'complete',
            toolCalls: [
              { callId: 'call_1', toolName: 'fs__read_file', arguments: '{"path":"/etc/passwd"}' },
              { callId: 'call_2', toolName: 'current_time', arguments: '' },
            ],
          },
          { role: 'tool', callId: 'call_1', toolName: 'fs__read_file', content: refusal, isError: true },
          { role: 'tool', callId: 'call_2', toolName: 'current_time', content: '12:00', isError: false },
        ],
      }),
    );
    const messages = bodyOf(server.chatRequests)['messages'] as Record<string, unknown>[];
    expect(messages.filter((message) => message['role'] === 'tool')).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: `[tool error] ${refusal}` },
      { role: 'tool', tool_call_id: 'call_2', content: '12:00' },
    ]);
  });

  it('sends reasoning back as reasoning_content on tool-call turns when reasoningHistory asks for it', async () => {
    const { server, provider } = await setup([fakeTextReply('ok')], { reasoningHistory: 'tool-calls' });
    await collect(
      provider,
      chatRequest({
        messages: [
          userText('Time?'),
          {
            role: 'assistant',
            content: '',
            reasoning: 'Use the clock.',
            status: 'complete',
            toolCalls: [{ callId: 'c1', toolName: 'current_time', arguments: '{}' }],
          },
          { role: 'tool', callId: 'c1', toolName: 'current_time', content: 'noon', isError: false },
          { role: 'assistant', content: 'Noon.', reasoning: 'Easy.', status: 'complete', toolCalls: [] },
          userText('Again?'),
        ],
      }),
    );
    const messages = bodyOf(server.chatRequests)['messages'] as Record<string, unknown>[];
    expect(messages[2]).toMatchObject({ role: 'assistant', reasoning_content: 'Use the clock.' });
    expect(messages[4]).not.toHaveProperty('reasoning_content');
  });

  it('adds extraBody fields and lets transformBody have the last word', async () => {
    const { server, provider } = await setup([fakeTextReply('ok')], {
      extraBody: { thinking: { type: 'enabled' } },
      transformBody: (body) => ({ ...body, user: 'tester' }),
    });
    await collect(provider);
    expect(bodyOf(server.chatRequests)).toMatchObject({ thinking: { type: 'enabled' }, user: 'tester' });
  });

  it('sends custom headers on every request', async () => {
    const { server, provider } = await setup([fakeTextReply('ok')], {
      headers: { 'X-Title': 'YouYou tests' },
    });
    await collect(provider);
    expect(server.chatRequests[0]?.headers['x-title']).toBe('YouYou tests');
  });
});
