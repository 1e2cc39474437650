import { join } from 'node:path';
import { createWorkbenchClient, isApiError, type WorkbenchClient } from '@youyou/client';
import type { MessageSearchHit } from '@youyou/contracts';
import { fakeTextReply } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDown, migrateToLatest, openDatabase } from '../src/database/index.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

/** The marked parts of a hit's snippet. */
function marked(hit: MessageSearchHit): string[] {
  return hit.highlights.map((range) => hit.snippet.slice(range.start, range.end));
}

describe.each(DATABASE_KINDS)('message text search on %s', (kind) => {
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

  const exchange = async (question: string, answer: string, title?: string) => {
    const conversation = await client.createConversation(title === undefined ? {} : { title });
    server.fake.push(fakeTextReply(answer));
    const sent = await client.sendMessage(conversation.id, { text: question });
    await server.settled(conversation.id, sent.run.id);
    return { conversationId: conversation.id, runId: sent.run.id, userMessageId: sent.user_message_id };
  };

  it('finds words in user and assistant message text (not only titles), CJK included, newest first, with highlighted snippets and message ids', async () => {
    const older = await exchange(
      'Where is the Pelican invoice?',
      'The pelican invoice is in the shared folder.',
      'Birds',
    );
    const newer = await exchange('季度营收报告在哪里？', '营收报告已经发给财务部了。');

    const latin = await client.searchMessages('PELICAN invoice');
    expect(latin.hits.map((hit) => [hit.conversation_id, hit.role, hit.message_id])).toEqual([
      [older.conversationId, 'assistant', older.runId],
      [older.conversationId, 'user', older.userMessageId],
    ]);
    expect(latin.hits[0]?.conversation_title).toBe('Birds');
    expect(marked(latin.hits[0]!)).toEqual(['pelican', 'invoice']);

    const cjk = await client.searchMessages('营收报告');
    expect(cjk.hits.map((hit) => [hit.conversation_id, hit.role])).toEqual([
      [newer.conversationId, 'assistant'],
      [newer.conversationId, 'user'],
    ]);
    expect(marked(cjk.hits[1]!)).toEqual(['营收报告']);
    // Two characters are below the trigram index; the search still finds them.
    expect((await client.searchMessages('财务')).hits.map((hit) => hit.role)).toEqual(['assistant']);
    // A title alone is not message text.
    expect((await client.searchMessages('Birds')).hits).toEqual([]);
  });

  it('a deleted conversation leaves the results: the index follows the event log', async () => {
    const gone = await exchange('the zebra-quartz codeword', 'Noted: zebra-quartz.');
    expect((await client.searchMessages('zebra-quartz')).hits).toHaveLength(2);
    await client.deleteConversation(gone.conversationId);
    expect((await client.searchMessages('zebra-quartz')).hits).toEqual([]);
  });

  it('an empty or over-long query is a structured INVALID_INPUT', async () => {
    for (const query of ['   ', 'x'.repeat(201)]) {
      const response = await server.request<{ error: { code: string } }>(
        'GET',
        `/api/messages/search?query=${encodeURIComponent(query)}`,
      );
      expect([response.status, response.body.error.code]).toEqual([400, 'INVALID_INPUT']);
    }
    const missing = await server.request<{ error: { code: string } }>('GET', '/api/messages/search');
    expect([missing.status, missing.body.error.code]).toEqual([400, 'INVALID_INPUT']);
    const error = await client.searchMessages('').catch((caught: unknown) => caught);
    expect(isApiError(error) && error.code).toBe('INVALID_INPUT');
  });

  it('a reply holding U+0000 completes and is found by its words (the migration below backfills past it)', async () => {
    const kept = await exchange('an ibex question', `ibex-walnut\u0000 answer`);
    const view = await client.getConversation(kept.conversationId);
    expect(view.runs.at(-1)?.status).toBe('completed');
    expect((await client.searchMessages('ibex-walnut')).hits.map((hit) => hit.role)).toEqual(['assistant']);
  });

  it('the migration backfills messages written before it', async () => {
    const earlier = await exchange('an okapi-marmalade question', 'an okapi-marmalade answer');
    await server.stop();
    const opened = openDatabase(
      database.url === undefined
        ? { sqliteFile: join(server.directories.dataDirectory, 'youyou.db') }
        : { databaseUrl: database.url },
    );
    try {
      expect((await migrateDown(opened)).applied).toEqual(['0100-message-search']);
      expect((await migrateToLatest(opened)).applied).toEqual(['0100-message-search']);
    } finally {
      await opened.close();
    }
    await server.restart();
    client = createWorkbenchClient({ baseUrl: server.url, token: server.token });
    const hits = (await client.searchMessages('okapi-marmalade')).hits;
    expect(hits.map((hit) => [hit.conversation_id, hit.role])).toEqual([
      [earlier.conversationId, 'assistant'],
      [earlier.conversationId, 'user'],
    ]);
  });
});
