import { afterEach, describe, expect, it } from 'vitest';
import type { ImageBlock, Message } from '@youyou/agent';
import { anthropic, openaiCompatible } from '@youyou/providers';
import { fakeTextReply, startFakeAnthropic, startFakeOpenAI, type FakeServer } from '@youyou/testing';
import { bodyOf, chatRequest, collect, fastRetry, userText } from './helpers.ts';

let server: FakeServer | undefined;

afterEach(async () => {
  server?.assertDone();
  await server?.close();
  server = undefined;
});

const PNG_BASE64 = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).toString('base64');
const image: ImageBlock = { type: 'image', mediaType: 'image/png', data: PNG_BASE64 };

/** One step with two calls, the first of which returned an image, then the user's next words. */
const history: Message[] = [
  userText('Take a screenshot and tell the time'),
  {
    role: 'assistant',
    content: '',
    status: 'complete',
    toolCalls: [
      { callId: 'call_1', toolName: 'browser__screenshot', arguments: '{}' },
      { callId: 'call_2', toolName: 'current_time', arguments: '{}' },
    ],
  },
  {
    role: 'tool',
    callId: 'call_1',
    toolName: 'browser__screenshot',
    content: '[image: image/png, 8 B]',
    isError: false,
    images: [image],
  },
  { role: 'tool', callId: 'call_2', toolName: 'current_time', content: '12:00', isError: false },
];

describe('tool results with images on the wire (decision 0046)', () => {
  it('Chat Completions: the tool messages keep their text and the images follow them in one user message', async () => {
    server = await startFakeOpenAI({ script: [fakeTextReply('ok')], apiKey: 'sk-test' });
    const provider = openaiCompatible({
      id: 'fake',
      baseURL: server.url,
      apiKey: 'sk-test',
      models: [{ id: 'fake-model' }],
      retry: fastRetry,
    });
    await collect(provider, chatRequest({ messages: history }));
    const messages = bodyOf(server.chatRequests)['messages'] as Record<string, unknown>[];
    expect(messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'browser__screenshot', arguments: '{}' } },
          { id: 'call_2', type: 'function', function: { name: 'current_time', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '[image: image/png, 8 B]' },
      { role: 'tool', tool_call_id: 'call_2', content: '12:00' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'The image returned by the tool call call_1 (browser__screenshot):' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
        ],
      },
    ]);
  });

  it('Anthropic Messages: the tool_result content is its text and an image block', async () => {
    server = await startFakeAnthropic({ script: [fakeTextReply('ok')], apiKey: 'sk-ant-test' });
    const provider = anthropic({
      baseURL: server.url,
      apiKey: 'sk-ant-test',
      models: [{ id: 'claude-sonnet-4-5', alias: 'fake-model' }],
      retry: fastRetry,
      promptCaching: false,
    });
    await collect(provider, chatRequest({ messages: [...history, userText('Thanks')] }));
    const messages = bodyOf(server.chatRequests)['messages'] as { role: string; content: unknown[] }[];
    expect(messages[2]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'call_1',
          content: [
            { type: 'text', text: '[image: image/png, 8 B]' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } },
          ],
        },
        { type: 'tool_result', tool_use_id: 'call_2', content: '12:00' },
        { type: 'text', text: 'Thanks' },
      ],
    });
  });
});
