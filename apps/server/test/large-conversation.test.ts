import { fakeTextReply } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationView } from '../src/conversations/index.ts';
import { WorkbenchSessionStorage } from '../src/storage/index.ts';
import { seedConversation } from '../src/testing/index.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

/** How fast it opens is measured by bench/server/large-conversation.ts, not asserted here. */
describe.each(DATABASE_KINDS)('a conversation of 10,000 messages on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;
  let conversationId: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database });
    conversationId = await seedConversation(server.server.services.database, { exchanges: 5_000 });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('opens at its newest page, and pages back to the first message in order', async () => {
    const newest = await server.call<ConversationView>('GET', `/api/conversations/${conversationId}`);
    expect(newest.branch_length).toBe(10_000);
    expect(newest.messages).toHaveLength(100);
    expect(newest.messages.at(-1)?.parts).toEqual([
      { type: 'text', text: 'answer 4999', status: 'complete' },
    ]);
    expect(newest.earlier_cursor).toBeDefined();

    const seen: string[] = [];
    let before: string | undefined;
    for (let page = 0; page < 20; page++) {
      const view: ConversationView = await server.call<ConversationView>(
        'GET',
        `/api/conversations/${conversationId}?limit=1000${before === undefined ? '' : `&before=${before}`}`,
      );
      seen.unshift(
        ...view.messages.map((message) =>
          message.parts.map((part) => ('text' in part ? part.text : '')).join(''),
        ),
      );
      before = view.earlier_cursor;
      if (before === undefined) break;
    }
    expect(seen).toHaveLength(10_000);
    expect(seen.slice(0, 3)).toEqual(['question 0', 'answer 0', 'question 1']);
    expect(seen.at(-1)).toBe('answer 4999');
  });

  it('a new turn carries all 10,000 messages to the model', async () => {
    server.fake.push(fakeTextReply('That was a long conversation.'));
    const sent = await server.call<{ run: { id: string } }>(
      'POST',
      `/api/conversations/${conversationId}/messages`,
      {
        text: 'Still there?',
      },
    );
    const view = await server.settled(conversationId, sent.run.id);
    expect(view.messages.at(-1)).toMatchObject({ status: 'complete' });
    const body = server.fake.chatRequests.at(-1)?.body as { messages: { role: string }[] };
    expect(
      body.messages.filter((message) => message.role === 'user' || message.role === 'assistant'),
    ).toHaveLength(10_001);
    // The new turn continued the branch's session: one session_created, sequences going on.
    const { database, eventLog } = server.server.services;
    const records = (await new WorkbenchSessionStorage({ database, eventLog }).load(sent.run.id)) ?? [];
    expect(
      records.filter((record) => record.type === 'metadata' && record.kind === 'session_created'),
    ).toHaveLength(1);
    expect(records.map((record) => record.sequence)).toEqual(records.map((_, index) => index));
  });
});
