import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeReply } from '@youyou/testing';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { isRunEnd, readEvents } from './support/sse.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

describe.each(DATABASE_KINDS)('how an answer ended, on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  async function answer(reply: FakeReply) {
    server.fake.push(reply);
    const conversation = await server.call<{ id: string }>('POST', '/api/conversations', {});
    let runId = '';
    const reading = readEvents({
      url: server.url,
      token: server.token,
      conversationId: conversation.id,
      after: 0,
      until: (event) => runId !== '' && isRunEnd(event, runId),
    });
    runId = (
      await server.call<{ run: { id: string } }>('POST', `/api/conversations/${conversation.id}/messages`, {
        text: 'go',
      })
    ).run.id;
    const events = await reading;
    const view = await server.settled(conversation.id, runId);
    const message = view.messages.at(-1) as {
      finish_reason?: string;
      parts: { type: string; text?: string }[];
    };
    const end = events.at(-1) as { type: string; payload: { finish_reason?: string } };
    return { message, end };
  }

  it('a reply cut off at the token limit completes with finish_reason length, in the SSE end and the Query', async () => {
    const { message, end } = await answer({
      type: 'stream',
      steps: [{ type: 'text', text: 'The first half of' }],
      finishReason: 'length',
    });
    expect(end).toMatchObject({ type: 'run.completed', payload: { finish_reason: 'length' } });
    expect(message.finish_reason).toBe('length');
    expect(message.parts.find((part) => part.type === 'text')?.text).toBe('The first half of');
  });

  it('a reply blocked by the provider’s filter completes with finish_reason content_filter', async () => {
    const { message, end } = await answer({
      type: 'stream',
      steps: [{ type: 'text', text: 'Here is' }],
      finishReason: 'content_filter',
    });
    expect(end.payload.finish_reason).toBe('content_filter');
    expect(message.finish_reason).toBe('content_filter');
  });

  it('an OpenAI refusal reaches the user as text marked as a refusal', async () => {
    const { message, end } = await answer({
      type: 'stream',
      steps: [{ type: 'refusal', text: 'I’m sorry, I can’t help with that.' }],
    });
    expect(end.payload.finish_reason).toBe('refusal');
    expect(message.finish_reason).toBe('refusal');
    expect(message.parts.find((part) => part.type === 'text')?.text).toBe(
      'I’m sorry, I can’t help with that.',
    );
  });

  it('a normal reply ends with stop', async () => {
    const { message } = await answer({ type: 'stream', steps: [{ type: 'text', text: 'Done.' }] });
    expect(message.finish_reason).toBe('stop');
  });
});
