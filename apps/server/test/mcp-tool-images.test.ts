import { fakeTextReply, fakeToolCallReply } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { EVERYTHING_SERVER } from './support/mcp-servers.ts';
import { sendFirstMessage, startTestServer, type TestServer } from './support/test-server.ts';

const WIRES = ['openai', 'anthropic'] as const;
const CASES = DATABASE_KINDS.flatMap((kind) => WIRES.map((wire) => [kind, wire] as const));

/** A model request's messages as the fake model server received them. */
type WireMessage = { role: string; content: unknown };

/**
 * The model requests a run made: the reference "everything" server's `get-tiny-image` is called
 * through the model, and the request after the call is what is checked.
 */
async function requestAfterImageCall(server: TestServer, modelId: string): Promise<WireMessage[]> {
  const before = server.fake.chatRequests.length;
  server.fake.push(fakeToolCallReply('everything__get-tiny-image', {}), fakeTextReply('a tiny image'));
  const { conversationId, runId } = await sendFirstMessage(server, 'show me the tiny image', {
    model_id: modelId,
  });
  const view = await server.settled(conversationId, runId);
  expect(view.runs.find((run) => run.id === runId)?.status).toBe('completed');
  const requests = server.fake.chatRequests.slice(before);
  expect(requests).toHaveLength(2);
  return (requests[1]?.body as { messages: WireMessage[] }).messages;
}

/** Every content part of every message, flattened (Anthropic's tool_result content included). */
function partsOf(messages: readonly WireMessage[]): Record<string, unknown>[] {
  const parts: Record<string, unknown>[] = [];
  const visit = (content: unknown): void => {
    if (!Array.isArray(content)) return;
    for (const part of content as Record<string, unknown>[]) {
      parts.push(part);
      visit(part['content']);
    }
  };
  for (const message of messages) visit(message.content);
  return parts;
}

describe.each(CASES)('MCP image results reach the model on %s over the %s wire', (kind, wire) => {
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database, wire, provider: false });
    await server.call('POST', '/api/providers', {
      name: 'fake',
      kind: wire === 'anthropic' ? 'anthropic' : 'openai-compatible',
      base_url: server.fake.url,
      api_key: 'sk-fake-key-for-tests-0001',
      models: [
        { id: 'seeing-model', context_window: 200_000, capabilities: { vision: true } },
        { id: 'blind-model', context_window: 200_000, capabilities: { vision: false } },
      ],
    });
    await server.call('POST', '/api/mcp/servers', {
      name: 'everything',
      transport: { type: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
    });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('a model whose capabilities say vision gets the image as image content beside the text line', async () => {
    const messages = await requestAfterImageCall(server, 'fake/seeing-model');
    const parts = partsOf(messages);
    if (wire === 'openai') {
      const tool = messages.find((message) => message.role === 'tool');
      expect(tool?.content).toMatch(/\[image: image\/png, [\d.]+ (B|kB)\]/);
      // A tool message takes text only: the image follows it in a user message.
      const after = messages[messages.indexOf(tool as WireMessage) + 1];
      expect(after?.role).toBe('user');
      expect(after?.content).toEqual([
        { type: 'text', text: expect.stringContaining('everything__get-tiny-image') as unknown },
        {
          type: 'image_url',
          image_url: { url: expect.stringMatching(/^data:image\/png;base64,iVBORw0KGgo/) as unknown },
        },
      ]);
    } else {
      const result = parts.find((part) => part['type'] === 'tool_result');
      expect(result?.['content']).toEqual([
        { type: 'text', text: expect.stringContaining('[image: image/png, ') as unknown },
        {
          type: 'image',
          source: {
            type: 'base64',
            media_type: 'image/png',
            data: expect.stringMatching(/^iVBORw0KGgo/) as unknown,
          },
        },
      ]);
    }
  });

  it('a model without vision gets the text line only', async () => {
    const messages = await requestAfterImageCall(server, 'fake/blind-model');
    const parts = partsOf(messages);
    expect(parts.some((part) => part['type'] === 'image' || part['type'] === 'image_url')).toBe(false);
    expect(JSON.stringify(messages)).not.toContain('iVBORw0KGgo');
    const text =
      wire === 'openai'
        ? messages.find((message) => message.role === 'tool')?.content
        : parts.find((part) => part['type'] === 'tool_result')?.['content'];
    expect(text).toMatch(/\[image: image\/png, [\d.]+ (B|kB)\]/);
  });
});
