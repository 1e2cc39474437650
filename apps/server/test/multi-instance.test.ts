import { fakeTextReply, startFakeOpenAI, type FakeServer } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationView } from '../src/conversations/index.ts';
import { ConversationProjection } from '@youyou/contracts';
import { callServer, startChildServer, type ChildServer } from './support/child-server.ts';
import {
  createTestDatabase,
  DATABASE_KINDS,
  PGLITE_SKIP_REASON,
  postgresServerAnswers,
  type TestDatabase,
} from './support/databases.ts';
import { isRunEnd, readEvents } from './support/sse.ts';
import { createTempDirectories, type TempDirectories } from './support/temp-directories.ts';

const realPostgres = await postgresServerAnswers();

// On PGlite (no PostgreSQL server here) the suite is listed as skipped, with the reason in its name.
describe.runIf(DATABASE_KINDS.includes('postgres') && !realPostgres)(
  `two server processes on one PostgreSQL: skipped, ${PGLITE_SKIP_REASON}`,
  () => {
    it.skip('a run on one server streams to a client of the other (LISTEN/NOTIFY)', () => {});
  },
);

describe.runIf(realPostgres)('two server processes on one PostgreSQL', () => {
  let database: TestDatabase;
  let directories: TempDirectories;
  let fake: FakeServer;
  let a: ChildServer;
  let b: ChildServer;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    directories = await createTempDirectories();
    fake = await startFakeOpenAI({ fallback: 'echo' });
    const options = {
      home: directories.home,
      dataDirectory: directories.dataDirectory,
      workspaceRoot: directories.root,
      databaseUrl: database.url as string,
    };
    [a, b] = await Promise.all([startChildServer(options), startChildServer(options)]);
    await callServer(a, 'POST', '/api/providers', {
      name: 'fake',
      kind: 'openai-compatible',
      base_url: fake.url,
      api_key: 'sk-shared-between-servers',
      models: [{ id: 'fake-model' }],
    });
  });

  afterAll(async () => {
    await a?.kill();
    await b?.kill();
    await fake?.close();
    await directories?.remove();
    await database?.drop();
  });

  it('a run on one server streams to a client of the other (LISTEN/NOTIFY), which ends where the Query is', async () => {
    const conversation = await callServer<{ id: string }>(a, 'POST', '/api/conversations', {});
    fake.push({
      type: 'stream',
      steps: Array.from({ length: 40 }, (_, index) => ({ type: 'text' as const, text: `t${index} ` })),
      stepDelayMs: 10,
    });
    let runId = '';
    const streamed = readEvents({
      url: b.url,
      token: b.token,
      conversationId: conversation.id,
      after: 0,
      until: (event) => runId !== '' && isRunEnd(event, runId),
    });
    runId = (
      await callServer<{ run: { id: string } }>(a, 'POST', `/api/conversations/${conversation.id}/messages`, {
        text: 'Stream me across servers',
      })
    ).run.id;
    const events = await streamed;
    const seqs = events.map((event) => event.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
    const mirror = new ConversationProjection();
    for (const event of events) mirror.apply(event);
    for (const server of [a, b]) {
      const view = await callServer<ConversationView>(server, 'GET', `/api/conversations/${conversation.id}`);
      expect(view.messages.map(({ siblings: _siblings, ...message }) => message)).toEqual(mirror.messages());
    }
    // A's log says it ran it; B never executed anything.
    expect(a.logs()).toContain(
      `"runId":"${runId}","conversationId":"${conversation.id}","status":"completed"`,
    );
    expect(b.logs()).not.toContain(
      `"runId":"${runId}","conversationId":"${conversation.id}","status":"completed"`,
    );
  });

  it('the other server refuses a second send (409) and can cancel the run the first one executes', async () => {
    const conversation = await callServer<{ id: string }>(a, 'POST', '/api/conversations', {});
    fake.push({
      type: 'stream',
      steps: Array.from({ length: 300 }, (_, index) => ({ type: 'text' as const, text: `slow${index} ` })),
      stepDelayMs: 20,
    });
    const sent = await callServer<{ run: { id: string } }>(
      a,
      'POST',
      `/api/conversations/${conversation.id}/messages`,
      {
        text: 'Take your time',
      },
    );
    await readEvents({
      url: b.url,
      token: b.token,
      conversationId: conversation.id,
      after: 0,
      until: (event) => event.type === 'message.delta',
    });
    const busy = await fetch(`${b.url}/api/conversations/${conversation.id}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${b.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'me too' }),
    });
    expect(busy.status).toBe(409);
    await callServer(b, 'POST', `/api/runs/${sent.run.id}/cancel`);
    let status = '';
    for (let attempt = 0; attempt < 200 && status !== 'cancelled'; attempt++) {
      status = (await callServer<{ status: string }>(b, 'GET', `/api/runs/${sent.run.id}`)).status;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(status).toBe('cancelled');
    fake.push(fakeTextReply('after the cancel'));
    const next = await callServer<{ run: { id: string } }>(
      b,
      'POST',
      `/api/conversations/${conversation.id}/messages`,
      {
        text: 'now from the other server',
      },
    );
    for (let attempt = 0; attempt < 200 && status !== 'completed'; attempt++) {
      status = (await callServer<{ status: string }>(a, 'GET', `/api/runs/${next.run.id}`)).status;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    // B decrypted the key A stored: both share the data directory's secret key.
    expect(status).toBe('completed');
  });

  it('when the server running a run dies (kill -9), the other marks the run interrupted', async () => {
    const conversation = await callServer<{ id: string }>(b, 'POST', '/api/conversations', {});
    fake.push({
      type: 'stream',
      steps: Array.from({ length: 500 }, (_, index) => ({ type: 'text' as const, text: `long${index} ` })),
      stepDelayMs: 20,
    });
    // Sent to B, so B runs it; A watches.
    const sent = await callServer<{ run: { id: string } }>(
      b,
      'POST',
      `/api/conversations/${conversation.id}/messages`,
      {
        text: 'This server will not finish',
      },
    );
    await readEvents({
      url: a.url,
      token: a.token,
      conversationId: conversation.id,
      after: 0,
      until: (event) => event.type === 'message.delta',
    });
    await b.kill('SIGKILL');
    let status = '';
    for (let attempt = 0; attempt < 120 && status !== 'interrupted'; attempt++) {
      status = (await callServer<{ status: string }>(a, 'GET', `/api/runs/${sent.run.id}`)).status;
      if (status !== 'interrupted') await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe('interrupted');
    const view = await callServer<ConversationView>(a, 'GET', `/api/conversations/${conversation.id}`);
    expect(view.messages[1]?.status).toBe('interrupted');
    expect(view.conversation.in_flight_run_id).toBeNull();
  });
});
