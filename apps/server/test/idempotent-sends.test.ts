import { createWorkbenchClient, isApiError, type WorkbenchClient } from '@youyou/client';
import { fakeAskUserReply, fakeTextReply } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { FORMAT_CARD, waitingCard } from './support/hitl.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

describe.each(DATABASE_KINDS)('idempotent sends on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;
  let client: WorkbenchClient;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database });
    client = createWorkbenchClient({ baseUrl: server.url, token: server.token });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  const send = (conversationId: string, key: string, body: unknown) =>
    server.request<{ run: { id: string; status: string }; user_message_id: string; seq: number }>(
      'POST',
      `/api/conversations/${conversationId}/messages`,
      { body, headers: { 'idempotency-key': key } },
    );

  it('a retry with the same Idempotency-Key returns the first run while it runs and after it ends, and starts no second run', async () => {
    const conversation = await client.createConversation();
    server.fake.push(fakeAskUserReply({ ...FORMAT_CARD }));
    const first = await send(conversation.id, 'key-1', { text: 'Write the report' });
    expect(first.status).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const card = await waitingCard(server, conversation.id);

    const during = await send(conversation.id, 'key-1', { text: 'Write the report' });
    expect(during.status).toBe(202);
    expect(during.headers.get('idempotent-replayed')).toBe('true');
    expect(during.body).toMatchObject({
      run: { id: first.body.run.id, status: 'waiting_hitl' },
      user_message_id: first.body.user_message_id,
      seq: first.body.seq,
    });

    server.fake.push(fakeTextReply('Done.'));
    await server.call('POST', `/api/conversations/${conversation.id}/cards/${card.card.id}/answer`, {
      answer: { type: 'choice', choice_id: 'md' },
    });
    const view = await server.settled(conversation.id, first.body.run.id);
    const after = await client.sendMessage(
      conversation.id,
      { text: 'Write the report' },
      { idempotencyKey: 'key-1' },
    );
    expect(after).toMatchObject({ run: { id: first.body.run.id, status: 'completed' } });
    expect(view.messages.filter((message) => message.role === 'user')).toHaveLength(1);
    expect(
      (await server.call<{ messages: unknown[] }>('GET', `/api/conversations/${conversation.id}`)).messages,
    ).toHaveLength(2);
  });

  it('the first answer of a key is kept in the database: a retry after a server restart returns it', async () => {
    const conversation = await client.createConversation();
    server.fake.push(fakeTextReply('Kept.'));
    const first = await client.sendMessage(
      conversation.id,
      { text: 'Remember me' },
      { idempotencyKey: 'key-restart' },
    );
    await server.settled(conversation.id, first.run.id);
    await server.restart();
    client = createWorkbenchClient({ baseUrl: server.url, token: server.token });
    const retry = await send(conversation.id, 'key-restart', { text: 'Remember me' });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.run).toMatchObject({ id: first.run.id, status: 'completed' });
  });

  it('the same key with a different body is refused with 422 IDEMPOTENCY_KEY_REUSED, naming the first run', async () => {
    const conversation = await client.createConversation();
    server.fake.push(fakeTextReply('One.'));
    const first = await client.sendMessage(
      conversation.id,
      { text: 'One' },
      { idempotencyKey: 'key-reused' },
    );
    await server.settled(conversation.id, first.run.id);
    const refused = await send(conversation.id, 'key-reused', { text: 'Two' });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      error: {
        code: 'IDEMPOTENCY_KEY_REUSED',
        details: { idempotency_key: 'key-reused', run_id: first.run.id },
      },
    });
  });

  it('key order in the body does not matter, and keys are per conversation', async () => {
    const one = await client.createConversation();
    const two = await client.createConversation();
    server.fake.push(fakeTextReply('A.'), fakeTextReply('B.'));
    const first = await send(one.id, 'shared-key', { text: 'Same', model_id: 'fake/fake-model' });
    await server.settled(one.id, first.body.run.id);
    const reordered = await send(one.id, 'shared-key', { model_id: 'fake/fake-model', text: 'Same' });
    expect(reordered.body.run.id).toBe(first.body.run.id);
    const other = await send(two.id, 'shared-key', { text: 'Same', model_id: 'fake/fake-model' });
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect(other.body.run.id).not.toBe(first.body.run.id);
    await server.settled(two.id, other.body.run.id);
  });

  it('two requests with one key at the same time start one run and both answer with it', async () => {
    const conversation = await client.createConversation();
    server.fake.push(fakeTextReply('Once.'));
    const [a, b] = await Promise.all([
      send(conversation.id, 'key-race', { text: 'Race' }),
      send(conversation.id, 'key-race', { text: 'Race' }),
    ]);
    expect([a?.status, b?.status]).toEqual([202, 202]);
    expect(a?.body.run.id).toBe(b?.body.run.id);
    await server.settled(conversation.id, a.body.run.id);
    const view = await server.call<{ messages: { role: string }[] }>(
      'GET',
      `/api/conversations/${conversation.id}`,
    );
    expect(view.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
  });

  it('a key that is empty or longer than 255 characters is refused as invalid input', async () => {
    const conversation = await client.createConversation();
    const long = await send(conversation.id, 'k'.repeat(256), { text: 'Hi' });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ error: { code: 'INVALID_INPUT' } });
  });

  it('starting a conversation with its first message creates both, and a retry with the key returns them', async () => {
    server.fake.push(fakeTextReply('Started.'));
    const started = await client.startConversation(
      { conversation: { title: 'Kick-off' }, message: { text: 'Begin' } },
      { idempotencyKey: 'start-1' },
    );
    expect(started.conversation).toMatchObject({ title: 'Kick-off' });
    const view = await server.settled(started.conversation.id, started.run.id);
    expect(view.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    const retry = await server.request<{ conversation: { id: string }; run: { id: string } }>(
      'POST',
      '/api/conversations/start',
      {
        body: { conversation: { title: 'Kick-off' }, message: { text: 'Begin' } },
        headers: { 'idempotency-key': 'start-1' },
      },
    );
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toMatchObject({
      conversation: { id: started.conversation.id },
      run: { id: started.run.id },
    });
    const { conversations } = await client.listConversations({ query: 'Kick-off' });
    expect(conversations).toHaveLength(1);
  });

  it('starting a conversation whose first message is refused leaves no conversation behind', async () => {
    const before = (await client.listConversations({ limit: 200 })).conversations.length;
    const refused = await client
      .startConversation({ message: { text: 'Use it', attachments: ['no-such-upload'] } })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(isApiError(refused) && refused.code).toBe('NOT_FOUND');
    const empty = await client
      .startConversation({ message: { text: '  ' } })
      .catch((error: unknown) => error);
    expect(isApiError(empty) && empty.code).toBe('INVALID_INPUT');
    expect((await client.listConversations({ limit: 200 })).conversations).toHaveLength(before);
  });
});
