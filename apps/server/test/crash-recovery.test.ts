import { FAILED_NOTE } from '@youyou/agent';
import { fakeTextReply } from '@youyou/testing';
import { describe, expect, it } from 'vitest';
import type { ConversationView } from '../src/conversations/index.ts';
import type { WorkbenchEvent } from '../src/events/index.ts';
import { callServer } from './support/child-server.ts';
import { crashServers, describeKillNine } from './support/crash-servers.ts';
import { createTestDatabase } from './support/databases.ts';
import { readEvents } from './support/sse.ts';
import { startTestServer } from './support/test-server.ts';

describeKillNine('kill -9 mid-run', (kind) => {
  const servers = crashServers({ kind, fake: { fallback: 'echo' } });

  it('after a restart the run is interrupted, every event a client received is still stored, and the next turn works', async () => {
    const first = await servers.start();
    await servers.addFakeProvider(first);
    const { fake } = servers;
    const conversation = await callServer<{ id: string }>(first, 'POST', '/api/conversations', {});
    fake.push({
      type: 'stream',
      steps: Array.from({ length: 400 }, (_, index) => ({
        type: 'text' as const,
        text: `part${index} `,
      })),
      stepDelayMs: 15,
    });
    const sent = await callServer<{ run: { id: string } }>(
      first,
      'POST',
      `/api/conversations/${conversation.id}/messages`,
      {
        text: 'A long answer, please',
      },
    );
    let deltas = 0;
    const { acknowledged, restarted: second } = await servers.crash(
      first,
      conversation.id,
      (event) => event.type === 'message.delta' && ++deltas >= 12,
    );
    const run = await callServer<{ status: string }>(second, 'GET', `/api/runs/${sent.run.id}`);
    expect(run.status).toBe('interrupted');
    const stored = await callServer<{ events: WorkbenchEvent[] }>(
      second,
      'GET',
      `/api/conversations/${conversation.id}/event-log?limit=5000`,
    );
    const bySeq = new Map(stored.events.map((event) => [event.seq, event]));
    for (const event of acknowledged) expect(bySeq.get(event.seq)).toEqual(event);
    expect(stored.events.at(-1)).toMatchObject({ type: 'run.interrupted', payload: { reason: 'crash' } });

    const view = await callServer<ConversationView>(second, 'GET', `/api/conversations/${conversation.id}`);
    const assistant = view.messages[1];
    expect(assistant?.status).toBe('interrupted');
    const received = acknowledged
      .filter((event) => event.type === 'message.delta')
      .map((event) => (event.type === 'message.delta' ? event.payload.text : ''))
      .join('');
    const text = assistant?.parts.find((part) => part.type === 'text');
    expect(text).toMatchObject({ status: 'incomplete' });
    expect(text?.type === 'text' && text.text.startsWith(received)).toBe(true);

    // The branch goes on: the model sees the cut answer, marked as cut.
    fake.push(fakeTextReply('Picking up again.'));
    const next = await callServer<{ run: { id: string } }>(
      second,
      'POST',
      `/api/conversations/${conversation.id}/messages`,
      {
        text: 'Go on',
      },
    );
    for (let attempt = 0; attempt < 200; attempt++) {
      const state = await callServer<{ status: string }>(second, 'GET', `/api/runs/${next.run.id}`);
      if (state.status === 'completed') break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect((await callServer<{ status: string }>(second, 'GET', `/api/runs/${next.run.id}`)).status).toBe(
      'completed',
    );
    const request = JSON.stringify(fake.chatRequests.at(-1)?.body);
    expect(request).toContain(received);
    expect(request).toContain(JSON.stringify(FAILED_NOTE));
    await second.kill('SIGTERM');
    expect(second.logs()).toContain('"msg":"stopped"');
  });
});

describe('a graceful stop mid-run', () => {
  it('ends the run interrupted (reason shutdown), and the restarted server takes new messages', async () => {
    const database = await createTestDatabase('sqlite');
    const server = await startTestServer({ database });
    try {
      server.fake.push({
        type: 'stream',
        steps: Array.from({ length: 300 }, (_, index) => ({ type: 'text' as const, text: `bit${index} ` })),
        stepDelayMs: 15,
      });
      const conversation = await server.call<{ id: string }>('POST', '/api/conversations', {});
      const sent = await server.call<{ run: { id: string } }>(
        'POST',
        `/api/conversations/${conversation.id}/messages`,
        {
          text: 'Keep going',
        },
      );
      await readEvents({
        url: server.url,
        token: server.token,
        conversationId: conversation.id,
        after: 0,
        until: (event) => event.type === 'message.delta',
      });
      await server.restart();
      expect((await server.call<{ status: string }>('GET', `/api/runs/${sent.run.id}`)).status).toBe(
        'interrupted',
      );
      const log = await server.call<{ events: WorkbenchEvent[] }>(
        'GET',
        `/api/conversations/${conversation.id}/event-log`,
      );
      expect(log.events.at(-1)).toMatchObject({ type: 'run.interrupted', payload: { reason: 'shutdown' } });
      server.fake.push(fakeTextReply('after the restart'));
      const next = await server.call<{ run: { id: string } }>(
        'POST',
        `/api/conversations/${conversation.id}/messages`,
        {
          text: 'Again',
        },
      );
      const view = await server.settled(conversation.id, next.run.id);
      expect(view.messages.at(-1)?.status).toBe('complete');
      expect(view.messages[1]?.status).toBe('interrupted');
    } finally {
      await server.close();
      await database.drop();
    }
  });
});
