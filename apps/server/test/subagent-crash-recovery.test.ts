import type { AgentTree } from '@youyou/contracts';
import { fakeTextReply, sessionScripts, type FakeReply } from '@youyou/testing';
import { expect, it } from 'vitest';
import type { WorkbenchEvent } from '../src/events/index.ts';
import { callServer } from './support/child-server.ts';
import { crashServers, describeKillNine } from './support/crash-servers.ts';
import { allNodes } from './support/agent-tree.ts';

/** One model response that calls spawn_agent once per task, all at once. */
function spawnAll(...tasks: string[]): FakeReply {
  return {
    type: 'stream',
    steps: tasks.map((task) => ({ type: 'tool_call' as const, name: 'spawn_agent', arguments: { task } })),
  };
}

/** A reply that streams for about `ms`. */
function slowText(ms: number, text: string): FakeReply {
  const pieces = Math.max(1, Math.round(ms / 20));
  return {
    type: 'stream',
    steps: Array.from({ length: pieces }, () => ({ type: 'text' as const, text })),
    stepDelayMs: 20,
  };
}

describeKillNine('kill -9 with a sub-agent tree running', (kind) => {
  const scripts = sessionScripts();
  const servers = crashServers({ kind, fake: { fallback: (request) => scripts.reply(request) } });

  async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`gave up waiting: ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  it('the parent, its sub-agents and a grandchild all end interrupted after a restart, the events received stay, and the conversation goes on', async () => {
    scripts.add({
      match: 'Research until the crash',
      replies: [spawnAll('Child alpha', 'Child beta'), fakeTextReply('never said')],
    });
    scripts.add({
      match: 'Child alpha',
      replies: [spawnAll('Grandchild gamma'), fakeTextReply('alpha never ends')],
    });
    scripts.add({ match: 'Child beta', replies: [slowText(30_000, 'beta ')] });
    scripts.add({ match: 'Grandchild gamma', replies: [slowText(30_000, 'gamma ')] });

    const first = await servers.start();
    await servers.addFakeProvider(first);
    const conversation = await callServer<{ id: string }>(first, 'POST', '/api/conversations', {});
    const sent = await callServer<{ run: { id: string } }>(
      first,
      'POST',
      `/api/conversations/${conversation.id}/messages`,
      { text: 'Research until the crash' },
    );
    const running = await until(
      () => callServer<AgentTree>(first, 'GET', `/api/conversations/${conversation.id}/agents`),
      (tree) => allNodes(tree).filter((node) => node.status === 'running').length === 3,
    );
    expect(allNodes(running).map((node) => [node.task, node.depth])).toEqual(
      expect.arrayContaining([
        ['Child alpha', 1],
        ['Child beta', 1],
        ['Grandchild gamma', 2],
      ]),
    );
    // What a client had seen before the crash, up to the sub-agents' progress.
    let progress = 0;
    const { acknowledged, restarted: second } = await servers.crash(
      first,
      conversation.id,
      (event) => event.type === 'agent.progress' && ++progress >= 3,
    );
    const tree = await callServer<AgentTree>(second, 'GET', `/api/conversations/${conversation.id}/agents`);
    expect(tree.roots).toHaveLength(1);
    expect(tree.roots[0]).toMatchObject({ run_id: sent.run.id, status: 'interrupted' });
    const nodes = allNodes(tree);
    expect(nodes).toHaveLength(3);
    for (const node of nodes) {
      expect(node).toMatchObject({ status: 'interrupted', phase: 'done' });
      expect(node.ended_at).not.toBeNull();
      const run = await callServer<{ status: string; kind: string }>(
        second,
        'GET',
        `/api/runs/${node.run_id}`,
      );
      expect(run).toMatchObject({ status: 'interrupted', kind: 'subagent' });
    }
    expect((await callServer<{ status: string }>(second, 'GET', `/api/runs/${sent.run.id}`)).status).toBe(
      'interrupted',
    );

    const stored = await callServer<{ events: WorkbenchEvent[] }>(
      second,
      'GET',
      `/api/conversations/${conversation.id}/event-log?limit=5000`,
    );
    const bySeq = new Map(stored.events.map((event) => [event.seq, event]));
    for (const event of acknowledged) expect(bySeq.get(event.seq)).toEqual(event);
    // Every sub-agent gets its result (interrupted) before the parent's run.interrupted.
    const afterCrash = stored.events.filter((event) => event.seq > (acknowledged.at(-1)?.seq ?? 0));
    const results = afterCrash.filter((event) => event.type === 'agent.result');
    expect(
      results
        .map((event) => (event.type === 'agent.result' ? [event.run_id, event.payload.status] : []))
        .sort(),
    ).toEqual(nodes.map((node) => [node.run_id, 'interrupted']).sort());
    const parentEnd = stored.events.findIndex(
      (event) => event.type === 'run.interrupted' && event.run_id === sent.run.id,
    );
    expect(parentEnd).toBeGreaterThan(-1);
    expect(stored.events[parentEnd]).toMatchObject({ payload: { reason: 'crash' } });
    for (const result of results) expect(stored.events.indexOf(result)).toBeLessThan(parentEnd);

    // The conversation goes on from the interrupted turn.
    scripts.add({ match: 'After the crash', replies: [fakeTextReply('Back again.')] });
    const next = await callServer<{ run: { id: string } }>(
      second,
      'POST',
      `/api/conversations/${conversation.id}/messages`,
      { text: 'After the crash' },
    );
    await until(
      () => callServer<{ status: string }>(second, 'GET', `/api/runs/${next.run.id}`),
      (run) => run.status === 'completed',
    );
    await second.kill('SIGTERM');
  }, 60_000);
});
