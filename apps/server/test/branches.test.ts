import { fakeTextReply, lastUserText } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationView } from '../src/conversations/index.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

interface Sent {
  run: { id: string };
  user_message_id: string;
  assistant_message_id: string;
}

/** The texts of a chat request's user and assistant messages, in order. */
function transcript(body: unknown): string[] {
  const messages = (body as { messages: { role: string; content: unknown }[] }).messages;
  return messages
    .filter((message) => message.role === 'user' || message.role === 'assistant')
    .map((message) => {
      const content = message.content;
      const text = Array.isArray(content)
        ? (content as { text?: string }[]).map((part) => part.text ?? '').join('')
        : String(content ?? '');
      return `${message.role}: ${text}`;
    });
}

function texts(view: ConversationView): string[] {
  return view.messages.map(
    (message) =>
      `${message.role}: ${message.parts.map((part) => ('text' in part ? part.text : '')).join('')}`,
  );
}

describe.each(DATABASE_KINDS)('the message tree on %s', (kind) => {
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

  async function send(conversationId: string, body: Record<string, unknown>, reply: string): Promise<Sent> {
    server.fake.push(fakeTextReply(reply));
    const sent = await server.call<Sent>('POST', `/api/conversations/${conversationId}/messages`, body);
    await server.settled(conversationId, sent.run.id);
    return sent;
  }

  it('editing a past message starts a branch the model sees alone, and the Query shows it with its sibling', async () => {
    const { id } = await server.call<{ id: string }>('POST', '/api/conversations', {});
    await send(id, { text: 'A' }, 'a1');
    const b = await send(id, { text: 'B' }, 'b1');
    await send(id, { text: 'C' }, 'c1');
    const edited = await send(id, { text: 'B edited', edit_of: b.user_message_id }, 'b2');

    expect(transcript(server.fake.chatRequests.at(-1)?.body)).toEqual([
      'user: A',
      'assistant: a1',
      'user: B edited',
    ]);
    const view = await server.call<ConversationView>('GET', `/api/conversations/${id}`);
    expect(texts(view)).toEqual(['user: A', 'assistant: a1', 'user: B edited', 'assistant: b2']);
    expect(view.messages[2]?.siblings).toEqual({
      ids: [b.user_message_id, edited.user_message_id],
      index: 1,
    });
    expect(view.messages[2]?.parent_id).toBe(view.messages[1]?.id);
    expect(view.branch_length).toBe(4);

    // Back to the first branch: its newest leaf, with C and c1.
    const back = await server.call<ConversationView>('POST', `/api/conversations/${id}/branch`, {
      message_id: b.user_message_id,
    });
    expect(texts(back)).toEqual([
      'user: A',
      'assistant: a1',
      'user: B',
      'assistant: b1',
      'user: C',
      'assistant: c1',
    ]);
    expect(back.messages[2]?.siblings).toEqual({
      ids: [b.user_message_id, edited.user_message_id],
      index: 0,
    });

    // Continuing there extends that branch only.
    await send(id, { text: 'D' }, 'd1');
    expect(transcript(server.fake.chatRequests.at(-1)?.body)).toEqual([
      'user: A',
      'assistant: a1',
      'user: B',
      'assistant: b1',
      'user: C',
      'assistant: c1',
      'user: D',
    ]);
  });

  it('regenerating an answer makes a sibling answer to the same message, from the same history', async () => {
    const { id } = await server.call<{ id: string }>('POST', '/api/conversations', {});
    await send(id, { text: 'Q1' }, 'first answer');
    const second = await send(id, { text: 'Q2' }, 'second answer');
    server.fake.push(fakeTextReply('second answer, again'));
    const again = await server.call<Sent>(
      'POST',
      `/api/conversations/${id}/messages/${second.assistant_message_id}/regenerate`,
      {},
    );
    const view = await server.settled(id, again.run.id);
    expect(again.user_message_id).toBe(second.user_message_id);
    expect(lastUserText(server.fake.chatRequests.at(-1)?.body)).toBe('Q2');
    expect(transcript(server.fake.chatRequests.at(-1)?.body)).toEqual([
      'user: Q1',
      'assistant: first answer',
      'user: Q2',
    ]);
    expect(texts(view).slice(2)).toEqual(['user: Q2', 'assistant: second answer, again']);
    expect(view.messages[3]?.siblings).toEqual({
      ids: [second.assistant_message_id, again.assistant_message_id],
      index: 1,
    });
    expect(view.messages[2]?.siblings).toEqual({ ids: [second.user_message_id], index: 0 });

    const original = await server.call<ConversationView>('POST', `/api/conversations/${id}/branch`, {
      message_id: second.assistant_message_id,
    });
    expect(texts(original).at(-1)).toBe('assistant: second answer');
  });

  it('previous_run_id null starts a new first message: a sibling of the conversation’s first one', async () => {
    const { id } = await server.call<{ id: string }>('POST', '/api/conversations', {});
    const first = await send(id, { text: 'Hello' }, 'hi');
    const restart = await send(id, { text: 'Hello again', previous_run_id: null }, 'hi again');
    expect(transcript(server.fake.chatRequests.at(-1)?.body)).toEqual(['user: Hello again']);
    const view = await server.call<ConversationView>('GET', `/api/conversations/${id}`);
    expect(view.messages[0]?.siblings).toEqual({
      ids: [first.user_message_id, restart.user_message_id],
      index: 1,
    });
  });

  it('an unknown message to edit, follow or switch to is NOT_FOUND', async () => {
    const { id } = await server.call<{ id: string }>('POST', '/api/conversations', {});
    for (const body of [
      { text: 'x', edit_of: 'nope' },
      { text: 'x', parent_message_id: 'nope' },
    ]) {
      const response = await server.request('POST', `/api/conversations/${id}/messages`, { body });
      expect(response).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } });
    }
    const branch = await server.request('POST', `/api/conversations/${id}/branch`, {
      body: { message_id: 'nope' },
    });
    expect(branch).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } });
    const regenerate = await server.request('POST', `/api/conversations/${id}/messages/nope/regenerate`, {
      body: {},
    });
    expect(regenerate).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } });
  });
});
