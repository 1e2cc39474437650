import type { AgentNode, AgentTree, ConversationMessage } from '@youyou/contracts';
import {
  fakeTextReply,
  fakeToolCallReply,
  firstUserText,
  sessionScripts,
  type FakeReply,
  type SessionScripts,
} from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkbenchEvent } from '../src/events/index.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { sendFirstMessage, startTestServer, type TestServer } from './support/test-server.ts';
import { allNodes } from './support/agent-tree.ts';

/** One model response that calls spawn_agent once per task, all at once. */
function spawnAll(...tasks: Record<string, unknown>[]): FakeReply {
  return {
    type: 'stream',
    steps: tasks.map((task) => ({ type: 'tool_call' as const, name: 'spawn_agent', arguments: task })),
  };
}

/** A reply that streams for about `ms`. */
function slowText(ms: number, text = 'working '): FakeReply {
  const pieces = Math.max(1, Math.round(ms / 20));
  return {
    type: 'stream',
    steps: Array.from({ length: pieces }, () => ({ type: 'text' as const, text })),
    stepDelayMs: 20,
  };
}

function toolResults(message: ConversationMessage | undefined) {
  return (message?.parts ?? []).flatMap((part) => (part.type === 'tool_result' ? [part] : []));
}

describe.each(DATABASE_KINDS)('sub-agents on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;
  let scripts: SessionScripts;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    scripts = sessionScripts();
    server = await startTestServer({
      database,
      fake: { fallback: (request) => scripts.reply(request) },
      server: { subagents: { maxConcurrent: 4, progressIntervalMs: 50 } },
    });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  async function events(conversationId: string): Promise<WorkbenchEvent[]> {
    const page = await server.call<{ events: WorkbenchEvent[] }>(
      'GET',
      `/api/conversations/${conversationId}/event-log?limit=5000`,
    );
    return page.events;
  }

  async function tree(conversationId: string): Promise<AgentTree> {
    return server.call<AgentTree>('GET', `/api/conversations/${conversationId}/agents`);
  }

  async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`gave up waiting: ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  it('three sub-agents run at once, each its own session and run; answers and artifacts return to the parent; usage rolls up', async () => {
    scripts.add({
      match: 'Compare three options',
      replies: [
        spawnAll(
          { task: 'Research alpha', expected_output: 'One line' },
          { task: 'Research beta' },
          { task: 'Research gamma', tools: ['create_artifact', 'read_artifact'] },
        ),
        fakeTextReply('All three are in.'),
      ],
    });
    scripts.add({ match: 'Research alpha', replies: [slowText(200, 'a ')] });
    scripts.add({ match: 'Research beta', replies: [slowText(200, 'b ')] });
    scripts.add({
      match: 'Research gamma',
      replies: [
        fakeToolCallReply('create_artifact', {
          title: 'gamma.md',
          kind: 'markdown',
          content: '# Gamma\nFast.\n',
        }),
        fakeTextReply('Gamma is fast; details in gamma.md.'),
      ],
    });
    const { conversationId, runId } = await sendFirstMessage(server, 'Compare three options');
    const view = await server.settled(conversationId, runId);
    const assistant = view.messages.at(-1);
    expect(assistant?.status).toBe('complete');
    const results = toolResults(assistant);
    expect(results.map((result) => result.is_error)).toEqual([false, false, false]);
    const gamma = results.find((result) => result.output.startsWith('Gamma is fast'));
    expect(gamma?.output).toMatch(/Artifacts it wrote:\n- "gamma.md" \(id [0-9a-f-]+\)/);
    expect(results.some((result) => result.output.startsWith('a a a'))).toBe(true);

    const nodes = allNodes(await tree(conversationId));
    expect(nodes).toHaveLength(3);
    expect(
      nodes.every((node) => node.status === 'completed' && node.depth === 1 && node.parent_run_id === runId),
    ).toBe(true);
    const gammaNode = nodes.find((node) => node.task === 'Research gamma');
    expect(gammaNode).toMatchObject({ tools: ['create_artifact', 'read_artifact'], tool_calls: 1 });
    expect(gammaNode?.artifacts).toEqual([expect.objectContaining({ title: 'gamma.md', kind: 'markdown' })]);
    expect(nodes.find((node) => node.task === 'Research alpha')?.expected_output).toBe('One line');

    // Concurrent: every spawn is logged before the first result.
    const log = await events(conversationId);
    const spawns = log.filter((event) => event.type === 'agent.spawn').map((event) => event.seq);
    const firstResult = log.find((event) => event.type === 'agent.result')?.seq ?? 0;
    expect(spawns).toHaveLength(3);
    expect(Math.max(...spawns)).toBeLessThan(firstResult);
    expect(log.some((event) => event.type === 'agent.progress')).toBe(true);

    // Each child's events are under its own run id, replayable alone.
    const child = nodes[0] as AgentNode;
    const replay = await server.call<{ events: WorkbenchEvent[] }>('GET', `/api/runs/${child.run_id}/events`);
    expect(replay.events.every((event) => event.run_id === child.run_id)).toBe(true);
    expect(replay.events.map((event) => event.type)).toEqual(
      expect.arrayContaining([
        'run.created',
        'agent.spawn',
        'message.delta',
        'run.completed',
        'agent.result',
      ]),
    );
    // The parent's own text shows none of the children's: theirs arrives as tool results.
    const parentText = (assistant?.parts ?? []).flatMap((part) => (part.type === 'text' ? [part.text] : []));
    expect(parentText).toEqual(['All three are in.']);

    // Usage rolls up to the parent run; the conversation counts each run once.
    const parentRun = await server.call<{ usage: { output_tokens: number } }>('GET', `/api/runs/${runId}`);
    const childOutput = nodes.reduce((sum, node) => sum + node.tokens.output, 0);
    expect(childOutput).toBeGreaterThan(0);
    expect(parentRun.usage.output_tokens).toBeGreaterThan(childOutput);
    const byConversation = await server.call<{ totals: { key: string; output_tokens: number }[] }>(
      'GET',
      '/api/usage?group_by=conversation',
    );
    expect(byConversation.totals.find((total) => total.key === conversationId)?.output_tokens).toBe(
      parentRun.usage.output_tokens,
    );
  });

  it('bad spawns are clear tool errors the parent survives: a tool it lacks, an unknown profile, no task', async () => {
    scripts.add({
      match: 'Try bad spawns',
      replies: [
        fakeToolCallReply('spawn_agent', { task: 'Delete things', tools: ['read_artifact', 'rm_rf'] }),
        fakeToolCallReply('spawn_agent', { task: 'Profiled', profile_id: 'nope' }),
        fakeToolCallReply('spawn_agent', { task: '   ' }),
        fakeTextReply('Could not.'),
      ],
    });
    const { conversationId, runId } = await sendFirstMessage(server, 'Try bad spawns');
    const view = await server.settled(conversationId, runId);
    expect(view.messages.at(-1)?.status).toBe('complete');
    const results = toolResults(view.messages.at(-1));
    expect(results[0]?.output).toMatch(
      /^Error \[SUBAGENT_TOOL_NOT_ALLOWED\]: .*not available here: rm_rf\. Available: .*read_artifact/,
    );
    expect(results[1]?.output).toMatch(/^Error \[SUBAGENT_PROFILE_NOT_FOUND\]/);
    expect(results[2]?.output).toMatch(/^Error \[INVALID_INPUT\]/);
    expect(allNodes(await tree(conversationId))).toHaveLength(0);
  });

  it('a profile gives a sub-agent its instructions and narrows its tools to the profile lists', async () => {
    const copy = await server.call<{ id: string }>('POST', '/api/profiles/default/duplicate', {
      name: 'Reader',
    });
    await server.call('PATCH', `/api/profiles/${copy.id}`, {
      systemPrompt: 'You only read artifacts. READER-PROFILE',
      tools: { allow: ['read_*', 'list_*'], deny: [], confirm: [] },
    });
    scripts.add({
      match: 'Use the reader',
      replies: [
        fakeToolCallReply('spawn_agent', { task: 'Read as a reader', profile_id: copy.id }),
        fakeTextReply('Read.'),
      ],
    });
    scripts.add({ match: 'Read as a reader', replies: [fakeTextReply('Nothing to read.')] });
    const { conversationId, runId } = await sendFirstMessage(server, 'Use the reader');
    await server.settled(conversationId, runId);
    const node = allNodes(await tree(conversationId))[0];
    expect(node).toMatchObject({ status: 'completed', profile_id: copy.id });
    // The profile's read_* and list_* take the built-in file, artifact and document tools.
    expect(node?.tools.sort()).toEqual([
      'list_artifacts',
      'list_files',
      'read_artifact',
      'read_document',
      'read_file',
    ]);
    const request = server.fake.chatRequests.find(
      (candidate) => firstUserText(candidate.body) === 'Read as a reader',
    );
    expect(JSON.stringify(request?.body)).toContain('READER-PROFILE');
  });

  it('budgets end a sub-agent with a stable code: tool calls, tokens, wall time; the parent goes on', async () => {
    scripts.add({
      match: 'Run within budgets',
      replies: [
        spawnAll(
          { task: 'Too many calls', budget: { max_tool_calls: 1 } },
          { task: 'Too many words', budget: { max_tokens: 40 } },
          { task: 'Too slow', budget: { max_duration_ms: 300 } },
        ),
        fakeTextReply('Budgets hit.'),
      ],
    });
    scripts.add({
      match: 'Too many calls',
      replies: [
        fakeToolCallReply('list_artifacts', {}),
        fakeToolCallReply('list_artifacts', {}),
        fakeTextReply('never'),
      ],
    });
    scripts.add({ match: 'Too many words', replies: [slowText(400, 'a long word that costs tokens ')] });
    scripts.add({ match: 'Too slow', replies: [slowText(3000)] });
    const { conversationId, runId } = await sendFirstMessage(server, 'Run within budgets');
    const view = await server.settled(conversationId, runId);
    expect(view.messages.at(-1)?.status).toBe('complete');
    const nodes = allNodes(await tree(conversationId));
    const codeOf = (task: string) => nodes.find((node) => node.task === task)?.error?.code;
    expect(nodes.every((node) => node.status === 'failed')).toBe(true);
    expect(codeOf('Too many calls')).toBe('SUBAGENT_TOOL_CALLS_EXCEEDED');
    expect(codeOf('Too many words')).toBe('SUBAGENT_TOKENS_EXCEEDED');
    expect(codeOf('Too slow')).toBe('SUBAGENT_TIME_EXCEEDED');
    const outputs = toolResults(view.messages.at(-1)).map((result) => result.output);
    expect(
      outputs.filter((output) => /^Error \[SUBAGENT_(TOOL_CALLS|TOKENS|TIME)_EXCEEDED\]/.test(output)),
    ).toHaveLength(3);
  });

  it('a sub-agent may spawn one level deeper, no further: depth 2 has no spawn_agent', async () => {
    scripts.add({
      match: 'Go deep',
      replies: [fakeToolCallReply('spawn_agent', { task: 'Level one' }), fakeTextReply('Deep enough.')],
    });
    scripts.add({
      match: 'Level one',
      replies: [fakeToolCallReply('spawn_agent', { task: 'Level two' }), fakeTextReply('One done.')],
    });
    scripts.add({
      match: 'Level two',
      replies: [fakeToolCallReply('spawn_agent', { task: 'Level three' }), fakeTextReply('Two done.')],
    });
    const { conversationId, runId } = await sendFirstMessage(server, 'Go deep');
    await server.settled(conversationId, runId);
    const found = await tree(conversationId);
    const levelOne = found.roots[0]?.children[0];
    expect(levelOne).toMatchObject({ task: 'Level one', depth: 1, status: 'completed' });
    expect(levelOne?.children[0]).toMatchObject({
      task: 'Level two',
      depth: 2,
      status: 'completed',
      children: [],
    });
    expect(levelOne?.children[0]?.tools).not.toContain('spawn_agent');
    expect(allNodes(found).some((node) => node.task === 'Level three')).toBe(false);
    const levelTwoRequest = server.fake.chatRequests.find(
      (request) => firstUserText(request.body) === 'Level two',
    );
    const offered = JSON.stringify((levelTwoRequest?.body as { tools?: unknown }).tools ?? []);
    expect(offered).not.toContain('spawn_agent');
    expect(offered).toContain('create_artifact');
    const replay = await server.call<{ events: WorkbenchEvent[] }>(
      'GET',
      `/api/runs/${levelOne?.children[0]?.run_id ?? ''}/events`,
    );
    const result = replay.events.find((event) => event.type === 'tool.result');
    expect(result?.type === 'tool.result' && result.payload.output).toMatch(/TOOL_NOT_FOUND/);
  });

  it('cancelling the parent cancels every sub-agent (cascade); one child can be cancelled alone', async () => {
    scripts.add({
      match: 'Cancel one of them',
      replies: [spawnAll({ task: 'Child to cancel' }, { task: 'Child to keep' }), fakeTextReply('Kept one.')],
    });
    scripts.add({ match: 'Child to cancel', replies: [slowText(5000)] });
    scripts.add({ match: 'Child to keep', replies: [slowText(600, 'kept ')] });
    const first = await sendFirstMessage(server, 'Cancel one of them');
    const running = await until(
      () => tree(first.conversationId),
      (found) => allNodes(found).filter((node) => node.status === 'running').length === 2,
    );
    const victim = allNodes(running).find((node) => node.task === 'Child to cancel') as AgentNode;
    const cancelled = await server.call<{ status: string }>('POST', `/api/runs/${victim.run_id}/cancel`);
    expect(cancelled.status).toBe('cancelled');
    const view = await server.settled(first.conversationId, first.runId);
    expect(view.messages.at(-1)?.status).toBe('complete');
    const statuses = Object.fromEntries(
      allNodes(await tree(first.conversationId)).map((node) => [node.task, node.status]),
    );
    expect(statuses).toEqual({ 'Child to cancel': 'cancelled', 'Child to keep': 'completed' });
    const outputs = toolResults(view.messages.at(-1)).map((result) => result.output);
    expect(outputs.some((output) => output.startsWith('Error [REQUEST_CANCELLED]'))).toBe(true);
    expect(outputs.some((output) => output.startsWith('kept kept'))).toBe(true);

    scripts.add({
      match: 'Cancel them all',
      replies: [spawnAll({ task: 'Endless one' }, { task: 'Endless two' }), fakeTextReply('never')],
    });
    scripts.add({ match: 'Endless one', replies: [slowText(5000)] });
    scripts.add({ match: 'Endless two', replies: [slowText(5000)] });
    const second = await sendFirstMessage(server, 'Cancel them all');
    await until(
      () => tree(second.conversationId),
      (found) => allNodes(found).filter((node) => node.status === 'running').length === 2,
    );
    expect((await server.call<{ status: string }>('POST', `/api/runs/${second.runId}/cancel`)).status).toBe(
      'cancelled',
    );
    const after = allNodes(await tree(second.conversationId));
    expect(after.map((node) => node.status)).toEqual(['cancelled', 'cancelled']);
  });

  it('at most maxConcurrent sub-agents of one parent run at once; the rest wait', async () => {
    await server.restart({ subagents: { maxConcurrent: 2, progressIntervalMs: 50 } });
    scripts.add({
      match: 'Queue three',
      replies: [
        spawnAll({ task: 'Queued A' }, { task: 'Queued B' }, { task: 'Queued C' }),
        fakeTextReply('Queued.'),
      ],
    });
    for (const task of ['Queued A', 'Queued B', 'Queued C'])
      scripts.add({ match: task, replies: [slowText(200)] });
    const { conversationId, runId } = await sendFirstMessage(server, 'Queue three');
    await server.settled(conversationId, runId);
    const log = await events(conversationId);
    const firstPhase = new Map<string, number>();
    for (const event of log) {
      if (
        event.type === 'run.phase' &&
        event.run_id !== runId &&
        event.run_id !== null &&
        !firstPhase.has(event.run_id)
      ) {
        firstPhase.set(event.run_id, event.seq);
      }
    }
    const started = [...firstPhase.values()];
    const firstResult = log.find((event) => event.type === 'agent.result')?.seq ?? 0;
    expect(started).toHaveLength(3);
    expect(started.filter((seq) => seq < firstResult)).toHaveLength(2);
  });

  it('a restart while sub-agents run ends the whole tree interrupted', async () => {
    scripts.add({
      match: 'Run until restart',
      replies: [spawnAll({ task: 'Long child one' }, { task: 'Long child two' }), fakeTextReply('never')],
    });
    scripts.add({ match: 'Long child one', replies: [slowText(5000)] });
    scripts.add({ match: 'Long child two', replies: [slowText(5000)] });
    const { conversationId, runId } = await sendFirstMessage(server, 'Run until restart');
    await until(
      () => tree(conversationId),
      (found) => allNodes(found).filter((node) => node.status === 'running').length === 2,
    );
    await server.restart();
    const found = await tree(conversationId);
    expect(found.roots[0]?.status).toBe('interrupted');
    expect(allNodes(found).map((node) => node.status)).toEqual(['interrupted', 'interrupted']);
    expect((await server.call<{ status: string }>('GET', `/api/runs/${runId}`)).status).toBe('interrupted');
    const results = (await events(conversationId)).filter((event) => event.type === 'agent.result');
    expect(results.map((event) => event.type === 'agent.result' && event.payload.status)).toEqual([
      'interrupted',
      'interrupted',
    ]);
  });
});
