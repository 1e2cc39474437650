import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

function slowReply(pieces = 20, delayMs = 30) {
  return {
    type: 'stream' as const,
    steps: Array.from({ length: pieces }, (_, index) => ({ type: 'text' as const, text: `${index} ` })),
    stepDelayMs: delayMs,
  };
}

interface RunView {
  id: string;
  status: string;
  started_at: string;
  ended_at: string;
}

describe.each(DATABASE_KINDS)('concurrent sends on %s', (kind) => {
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

  it('a second send while a run is in flight is 409 CONVERSATION_BUSY; after it ends, sending works again', async () => {
    const { id } = await server.call<{ id: string }>('POST', '/api/conversations', {});
    server.fake.push(slowReply());
    const first = await server.call<{ run: { id: string }; assistant_message_id: string }>(
      'POST',
      `/api/conversations/${id}/messages`,
      { text: 'one' },
    );
    const second = await server.request('POST', `/api/conversations/${id}/messages`, {
      body: { text: 'two' },
    });
    expect(second).toMatchObject({
      status: 409,
      body: { error: { code: 'CONVERSATION_BUSY', retryable: true, details: { conversation_id: id } } },
    });
    const regenerate = await server.request(
      'POST',
      `/api/conversations/${id}/messages/${first.assistant_message_id}/regenerate`,
      {
        body: {},
      },
    );
    expect(regenerate.status).toBe(409);
    const view = await server.call<{ in_flight_run: { id: string } | null }>(
      'GET',
      `/api/conversations/${id}`,
    );
    expect(view.in_flight_run?.id).toBe(first.run.id);
    const listed = await server.call<{ conversations: { id: string; in_flight_run_id: string | null }[] }>(
      'GET',
      '/api/conversations',
    );
    expect(listed.conversations.find((entry) => entry.id === id)?.in_flight_run_id).toBe(first.run.id);
    await server.settled(id, first.run.id);
    const after = await server.call<{ in_flight_run_id: string | null }>(
      'PATCH',
      `/api/conversations/${id}`,
      {},
    );
    expect(after.in_flight_run_id).toBeNull();
    expect(
      (await server.request('POST', `/api/conversations/${id}/messages`, { body: { text: 'three' } })).status,
    ).toBe(202);
  });

  it('sends racing on one conversation: exactly one is accepted', async () => {
    const { id } = await server.call<{ id: string }>('POST', '/api/conversations', {});
    server.fake.push(slowReply(5, 20));
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        server.request<{ run?: { id: string } }>('POST', `/api/conversations/${id}/messages`, {
          body: { text: `racer ${index}` },
        }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([202, 409, 409, 409, 409, 409]);
    const winner = responses.find((response) => response.status === 202)?.body.run?.id as string;
    await server.settled(id, winner);
  });

  it('runs of different conversations go on at the same time', async () => {
    const conversations = await Promise.all(
      [0, 1, 2].map(() => server.call<{ id: string }>('POST', '/api/conversations', {})),
    );
    server.fake.push(slowReply(), slowReply(), slowReply());
    const runs = await Promise.all(
      conversations.map((conversation) =>
        server.call<{ run: { id: string } }>('POST', `/api/conversations/${conversation.id}/messages`, {
          text: 'go',
        }),
      ),
    );
    await Promise.all(
      runs.map((sent, index) => server.settled(conversations[index]?.id as string, sent.run.id)),
    );
    const views = await Promise.all(
      runs.map((sent) => server.call<RunView>('GET', `/api/runs/${sent.run.id}`)),
    );
    for (const view of views) expect(view.status).toBe('completed');
    const latestStart = Math.max(...views.map((view) => Date.parse(view.started_at)));
    const earliestEnd = Math.min(...views.map((view) => Date.parse(view.ended_at)));
    expect(latestStart).toBeLessThan(earliestEnd);
  });
});
