import type { AgentProfile, HitlCardView, ToolAuditRecord, WorkbenchEventType } from '@youyou/contracts';
import { fakeTextReply, fakeToolCallReply, type FakeReply } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkbenchEvent } from '../src/events/index.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

/** One model response that calls spawn_agent once per task, all at once. */
function spawnAll(...tasks: Record<string, unknown>[]): FakeReply {
  return {
    type: 'stream',
    steps: tasks.map((task) => ({ type: 'tool_call' as const, name: 'spawn_agent', arguments: task })),
  };
}

describe.each(DATABASE_KINDS)('sub-agents’ confirmation cards on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;
  let careful: string;
  let researcher: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database, server: { subagents: { maxConcurrent: 4 } } });
    const profile = (name: string, confirm: string[]) =>
      server.call<AgentProfile>('POST', '/api/profiles', {
        name,
        systemPrompt: '',
        model: { router: 'chat' },
        parameters: {},
        tools: { allow: ['*'], deny: [], confirm },
        context: { policy: 'default' },
        hitl: { askOnAmbiguity: true, timeoutSec: null },
        budget: {},
      });
    careful = (await profile('Careful', ['current_time'])).id;
    researcher = (await profile('Researcher', [])).id;
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  async function start(text: string): Promise<{ conversationId: string; runId: string }> {
    const conversationId = (
      await server.call<{ id: string }>('POST', '/api/conversations', { profile_id: careful })
    ).id;
    const sent = await server.call<{ run: { id: string } }>(
      'POST',
      `/api/conversations/${conversationId}/messages`,
      { text },
    );
    return { conversationId, runId: sent.run.id };
  }

  /** Waits (test-side polling) until `count` cards wait in the conversation. */
  async function pendingCards(conversationId: string, count: number): Promise<HitlCardView[]> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const { cards } = await server.call<{ cards: HitlCardView[] }>(
        'GET',
        `/api/conversations/${conversationId}/cards?status=pending`,
      );
      if (cards.length >= count) return cards;
      if (Date.now() > deadline) throw new Error(`${cards.length} of ${count} cards appeared`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async function eventsOf(conversationId: string, type: WorkbenchEventType): Promise<WorkbenchEvent[]> {
    const page = await server.call<{ events: WorkbenchEvent[] }>(
      'GET',
      `/api/conversations/${conversationId}/event-log?limit=5000`,
    );
    return page.events.filter((event) => event.type === type);
  }

  it('a sub-agent’s confirmation card names the sub-agent: its run, task and profile', async () => {
    server.fake.push(
      spawnAll({ task: 'Tell the time in Tokyo', tools: ['current_time'], profile_id: researcher }),
      fakeToolCallReply('current_time', {}),
      fakeTextReply('It is noon in Tokyo.'),
      fakeTextReply('done'),
    );
    const { conversationId, runId } = await start('delegate the time');
    const [card] = await pendingCards(conversationId, 1);
    expect(card?.card.subagent).toEqual({
      run_id: expect.any(String) as string,
      task: 'Tell the time in Tokyo',
      profile_id: researcher,
      profile_name: 'Researcher',
    });
    expect(card?.card.subagent?.run_id).not.toBe(runId);
    // The same in the event the UI reads.
    const [request] = await eventsOf(conversationId, 'hitl.request');
    expect((request?.payload as { card: { subagent?: unknown } }).card.subagent).toEqual(card?.card.subagent);
    await server.call('POST', `/api/conversations/${conversationId}/cards/${card?.card.id}/answer`, {
      answer: { type: 'confirm', confirmed: true, scope: 'once' },
    });
    await server.settled(conversationId, runId);
  }, 30_000);

  it('the conversation’s own turn raises cards without a sub-agent', async () => {
    server.fake.push(fakeToolCallReply('current_time', {}), fakeTextReply('done'));
    const { conversationId, runId } = await start('what time is it');
    const [card] = await pendingCards(conversationId, 1);
    expect(card?.card.subagent).toBeUndefined();
    await server.call('POST', `/api/conversations/${conversationId}/cards/${card?.card.id}/answer`, {
      answer: { type: 'confirm', confirmed: false },
    });
    await server.settled(conversationId, runId);
  }, 30_000);

  it('“allow for this conversation” on one sub-agent’s card answers its twin waiting for the same tool; both run', async () => {
    server.fake.push(
      spawnAll(
        { task: 'Time for Tokyo', tools: ['current_time'] },
        { task: 'Time for Lima', tools: ['current_time'] },
      ),
      fakeToolCallReply('current_time', {}),
      fakeToolCallReply('current_time', {}),
      fakeTextReply('one time'),
      fakeTextReply('another time'),
      fakeTextReply('both done'),
    );
    const { conversationId, runId } = await start('two times at once');
    const cards = await pendingCards(conversationId, 2);
    expect(cards.map((card) => card.card.subagent?.task).sort()).toEqual(['Time for Lima', 'Time for Tokyo']);
    const [first, twin] = cards as [HitlCardView, HitlCardView];
    await server.call('POST', `/api/conversations/${conversationId}/cards/${first.card.id}/answer`, {
      answer: { type: 'confirm', confirmed: true, scope: 'conversation' },
    });
    const view = await server.settled(conversationId, runId);
    expect(view.messages.at(-1)?.status).toBe('complete');

    const resolved = await server.call<HitlCardView>(
      'GET',
      `/api/conversations/${conversationId}/cards/${twin.card.id}`,
    );
    expect(resolved.status).toBe('answered');
    expect(resolved.resolution).toMatchObject({
      answer: { type: 'confirm', confirmed: true, scope: 'conversation' },
      answered_with_card_id: first.card.id,
    });
    // Every tab hears of both: one hitl.resolved per card.
    const resolutions = (await eventsOf(conversationId, 'hitl.resolved')).map(
      (event) => (event.payload as { card_id: string }).card_id,
    );
    expect(resolutions.sort()).toEqual([first.card.id, twin.card.id].sort());
    const { calls } = await server.call<{ calls: ToolAuditRecord[] }>(
      'GET',
      `/api/conversations/${conversationId}/tool-calls`,
    );
    const timeCalls = calls.filter((call) => call.tool_name === 'current_time');
    expect(timeCalls.map((call) => [call.outcome, call.decided_by])).toEqual([
      ['success', 'user'],
      ['success', 'user'],
    ]);
    expect(timeCalls.map((call) => call.card_id).sort()).toEqual([first.card.id, twin.card.id].sort());
    // One grant, and the conversation's next call does not ask.
    expect(
      (await server.call<{ tools: string[] }>('GET', `/api/conversations/${conversationId}/tool-grants`))
        .tools,
    ).toEqual(['current_time']);
  }, 30_000);

  it('“allow once” answers only its own card; the twin waits for its own answer', async () => {
    server.fake.push(
      spawnAll(
        { task: 'Time once', tools: ['current_time'] },
        { task: 'Time twice', tools: ['current_time'] },
      ),
      fakeToolCallReply('current_time', {}),
      fakeToolCallReply('current_time', {}),
      fakeTextReply('one time'),
      fakeTextReply('another time'),
      fakeTextReply('both done'),
    );
    const { conversationId, runId } = await start('two times, one by one');
    const [first] = await pendingCards(conversationId, 2);
    await server.call('POST', `/api/conversations/${conversationId}/cards/${first?.card.id}/answer`, {
      answer: { type: 'confirm', confirmed: true, scope: 'once' },
    });
    const still = await pendingCards(conversationId, 1);
    expect(still.map((card) => card.card.id)).not.toContain(first?.card.id);
    expect(still).toHaveLength(1);
    await server.call('POST', `/api/conversations/${conversationId}/cards/${still[0]?.card.id}/answer`, {
      answer: { type: 'confirm', confirmed: true, scope: 'once' },
    });
    await server.settled(conversationId, runId);
  }, 30_000);
});
