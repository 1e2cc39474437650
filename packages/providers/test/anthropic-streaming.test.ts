import { afterEach, describe, expect, it } from 'vitest';
import type { ChatEvent } from '@youyou/agent';
import { anthropic } from '@youyou/providers';
import { fakeTextReply, startFakeAnthropic } from '@youyou/testing';
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

async function setup(script: FakeReply[], options: Parameters<typeof anthropic>[0] = {}) {
  server = await startFakeAnthropic({ script, apiKey: 'sk-ant-test' });
  const provider = anthropic({
    baseURL: server.url,
    apiKey: 'sk-ant-test',
    models: [{ id: 'claude-sonnet-4-5', alias: 'fake-model' }],
    retry: fastRetry,
    ...options,
  });
  return { server, provider };
}

function doneOf(events: readonly ChatEvent[]): Extract<ChatEvent, { type: 'done' }> {
  const last = lastEvent(events);
  if (last.type !== 'done') throw new Error(`expected done, got ${JSON.stringify(last)}`);
  return last;
}

describe('Anthropic provider: streaming', () => {
  it('streams text deltas and ends with done, usage and the stop reason', async () => {
    const { provider } = await setup([
      {
        type: 'stream',
        steps: [
          { type: 'text', text: 'Hello' },
          { type: 'text', text: ', world' },
          { type: 'usage', inputTokens: 40, outputTokens: 6, cachedInputTokens: 30 },
        ],
      },
    ]);
    const events = await collect(provider);
    expect(textOf(events)).toBe('Hello, world');
    expect(doneOf(events)).toEqual({
      type: 'done',
      finishReason: 'stop',
      usage: { inputTokens: 70, outputTokens: 6, cachedInputTokens: 30 },
    });
  });

  it('reports prompt-cache reads and writes apart, both counted in the whole prompt', async () => {
    const { provider } = await setup([
      {
        type: 'stream',
        steps: [
          { type: 'text', text: 'Cached' },
          { type: 'usage', inputTokens: 10, outputTokens: 2, cachedInputTokens: 50, cacheWriteTokens: 40 },
        ],
      },
    ]);
    expect(doneOf(await collect(provider)).usage).toEqual({
      inputTokens: 100,
      outputTokens: 2,
      cachedInputTokens: 50,
      cacheWriteTokens: 40,
    });
  });

  it('sends the key, the API version, the server model name and the system prompt at the top level', async () => {
    const { server, provider } = await setup([fakeTextReply('ok')]);
    await collect(provider);
    const request = server.chatRequests[0];
    expect(request?.headers['x-api-key']).toBe('sk-ant-test');
    expect(request?.headers['anthropic-version']).toBe('2023-06-01');
    expect(request?.body).toMatchObject({
      model: 'claude-sonnet-4-5',
      stream: true,
      system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Hello', cache_control: { type: 'ephemeral' } }] },
      ],
    });
  });

  it('defaults max_tokens to the model output limit, capped at 32,000, and honours the request', async () => {
    const { server, provider } = await setup([fakeTextReply('a'), fakeTextReply('b'), fakeTextReply('c')], {
      models: [
        { id: 'claude-sonnet-4-5', alias: 'fake-model' },
        { id: 'claude-3-5-haiku-20241022', alias: 'haiku' },
      ],
    });
    await collect(provider);
    await collect(provider, chatRequest({ model: 'haiku' }));
    await collect(provider, chatRequest({ maxTokens: 777 }));
    expect(bodyOf(server.chatRequests, 0)['max_tokens']).toBe(32_000);
    expect(bodyOf(server.chatRequests, 1)['max_tokens']).toBe(8_192);
    expect(bodyOf(server.chatRequests, 2)['max_tokens']).toBe(777);
  });

  it('streams thinking as reasoning and keeps its signature for the next request', async () => {
    const { server, provider } = await setup([
      {
        type: 'stream',
        steps: [
          { type: 'reasoning', text: 'Let me ' },
          { type: 'reasoning', text: 'think.' },
          { type: 'tool_call', id: 'toolu_1', name: 'current_time', arguments: {} },
        ],
      },
      fakeTextReply('Noon.'),
    ]);
    const first = await collect(provider, chatRequest({ reasoningEffort: 'medium' }));
    expect(reasoningOf(first)).toBe('Let me think.');
    const done = doneOf(first);
    expect(done.finishReason).toBe('tool_calls');
    expect(done.providerMetadata).toEqual({
      anthropic: {
        model: 'claude-sonnet-4-5',
        thinking: [{ type: 'thinking', thinking: 'Let me think.', signature: expect.any(String) as string }],
      },
    });
    await collect(
      provider,
      chatRequest({
        reasoningEffort: 'medium',
        messages: [
          userText('Time?'),
          {
            role: 'assistant',
            content: '',
            reasoning: 'Let me think.',
            status: 'complete',
            toolCalls: [{ callId: 'toolu_1', toolName: 'current_time', arguments: '{}' }],
            ...(done.providerMetadata === undefined ? {} : { providerMetadata: done.providerMetadata }),
          },
          { role: 'tool', callId: 'toolu_1', toolName: 'current_time', content: '12:00', isError: false },
        ],
      }),
    );
    const messages = bodyOf(server.chatRequests, 1)['messages'] as { role: string; content: unknown[] }[];
    expect(messages[1]?.content).toEqual([
      { type: 'thinking', thinking: 'Let me think.', signature: expect.any(String) as string },
      { type: 'tool_use', id: 'toolu_1', name: 'current_time', input: {} },
    ]);
  });

  it('turns reasoningEffort into a thinking budget below max_tokens and drops temperature', async () => {
    const { server, provider } = await setup([fakeTextReply('a'), fakeTextReply('b'), fakeTextReply('c')]);
    await collect(provider, chatRequest({ reasoningEffort: 'high', temperature: 0.3 }));
    await collect(provider, chatRequest({ reasoningEffort: 'high', maxTokens: 4_096 }));
    await collect(provider, chatRequest({ temperature: 0.3 }));
    expect(bodyOf(server.chatRequests, 0)).toMatchObject({
      thinking: { type: 'enabled', budget_tokens: 24_000 },
    });
    expect(bodyOf(server.chatRequests, 0)).not.toHaveProperty('temperature');
    expect(bodyOf(server.chatRequests, 1)).toMatchObject({
      max_tokens: 4_096,
      thinking: { budget_tokens: 3_072 },
    });
    expect(bodyOf(server.chatRequests, 2)).toMatchObject({ temperature: 0.3 });
    expect(bodyOf(server.chatRequests, 2)).not.toHaveProperty('thinking');
  });

  it('sends adaptive thinking with an effort when thinkingMode is adaptive', async () => {
    const { server, provider } = await setup([fakeTextReply('a')], { thinkingMode: 'adaptive' });
    await collect(provider, chatRequest({ reasoningEffort: 'minimal' }));
    expect(bodyOf(server.chatRequests)).toMatchObject({
      thinking: { type: 'adaptive' },
      output_config: { effort: 'low' },
    });
  });

  it('assembles tool_use input from input_json_delta fragments, for several tools', async () => {
    const { server, provider } = await setup([
      {
        type: 'stream',
        steps: [
          { type: 'text', text: 'Reading both.' },
          {
            type: 'tool_call',
            id: 'toolu_a',
            name: 'read_file',
            arguments: { path: 'a/文件.txt' },
            fragments: 5,
          },
          { type: 'tool_call', id: 'toolu_b', name: 'read_file', arguments: { path: 'b.txt' }, fragments: 2 },
        ],
      },
    ]);
    const events = await collect(
      provider,
      chatRequest({ tools: [{ name: 'read_file', description: 'Reads.', parameters: { type: 'object' } }] }),
    );
    expect(events.filter((event) => event.type === 'tool_call')).toEqual([
      { type: 'tool_call', callId: 'toolu_a', toolName: 'read_file', arguments: '{"path":"a/文件.txt"}' },
      { type: 'tool_call', callId: 'toolu_b', toolName: 'read_file', arguments: '{"path":"b.txt"}' },
    ]);
    expect(doneOf(events).finishReason).toBe('tool_calls');
    expect(bodyOf(server.chatRequests)['tools']).toEqual([
      { name: 'read_file', description: 'Reads.', input_schema: { type: 'object' } },
    ]);
  });

  it('keeps multi-byte UTF-8 intact when every byte arrives in its own write', async () => {
    const text = 'こんにちは、世界 🌏 — ça va';
    const { provider } = await setup([{ type: 'stream', splitBytes: 1, steps: [{ type: 'text', text }] }]);
    expect(textOf(await collect(provider))).toBe(text);
  });

  it('sends images and PDFs as blocks, and text files as text', async () => {
    const { server, provider } = await setup([fakeTextReply('ok')], { promptCaching: false });
    await collect(
      provider,
      chatRequest({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Compare.' },
              { type: 'image', mediaType: 'image/jpeg', data: '/9j/4AAQ' },
              {
                type: 'file',
                path: '/w/spec.pdf',
                name: 'spec.pdf',
                mediaType: 'application/pdf',
                data: 'JVBERi0=',
              },
              {
                type: 'file',
                path: '/w/a.ts',
                name: 'a.ts',
                mediaType: 'text/typescript',
                text: 'export {};',
              },
            ],
          },
        ],
      }),
    );
    expect(bodyOf(server.chatRequests)['messages']).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare.' },
          { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' } },
          {
            type: 'document',
            title: 'spec.pdf',
            source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
          },
          {
            type: 'text',
            text: '<file name="a.ts" path="/w/a.ts" media-type="text/typescript">\nexport {};\n</file>',
          },
        ],
      },
    ]);
  });

  it('places leading system messages in system and later ones in the conversation, with tool results first', async () => {
    const { server, provider } = await setup([fakeTextReply('ok')], { promptCaching: false });
    await collect(
      provider,
      chatRequest({
        messages: [
          { role: 'system', content: 'Project rules.' },
          userText('Time?'),
          {
            role: 'assistant',
            content: 'Checking.',
            status: 'complete',
            toolCalls: [{ callId: 'toolu_1', toolName: 'current_time', arguments: '{"zone":"UTC"}' }],
          },
          { role: 'system', content: 'Earlier turns were summarised.' },
          { role: 'tool', callId: 'toolu_1', toolName: 'current_time', content: 'failed', isError: true },
          { role: 'assistant', content: 'It failed.  ', status: 'incomplete', toolCalls: [] },
        ],
      }),
    );
    const body = bodyOf(server.chatRequests);
    expect(body['system']).toEqual([{ type: 'text', text: 'You are terse.\n\nProject rules.' }]);
    expect(body['messages']).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Time?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_1', name: 'current_time', input: { zone: 'UTC' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'failed', is_error: true },
          { type: 'text', text: '<system>\nEarlier turns were summarised.\n</system>' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'It failed.' }] },
    ]);
  });

  it('does not send thinking blocks recorded for a different model', async () => {
    const { server, provider } = await setup([fakeTextReply('ok')], { promptCaching: false });
    await collect(
      provider,
      chatRequest({
        messages: [
          userText('Hi'),
          {
            role: 'assistant',
            content: 'Hello.',
            status: 'complete',
            toolCalls: [],
            providerMetadata: {
              anthropic: {
                model: 'claude-opus-4-1',
                thinking: [{ type: 'thinking', thinking: 't', signature: 's' }],
              },
            },
          },
          userText('Again'),
        ],
      }),
    );
    const messages = bodyOf(server.chatRequests)['messages'] as { content: unknown[] }[];
    expect(messages[1]?.content).toEqual([{ type: 'text', text: 'Hello.' }]);
  });
});
