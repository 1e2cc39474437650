import { fakeTextReply, fakeToolCallReply } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationView } from '../src/conversations/index.ts';
import type { WorkbenchEvent } from '../src/events/index.ts';
import { ConversationProjection, type ConversationMessage } from '@youyou/contracts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { isRunEnd, readEvents } from './support/sse.ts';
import { sendFirstMessage, startTestServer, type TestServer } from './support/test-server.ts';

/** Messages without the tree facts only the Query knows. */
function withoutSiblings(messages: readonly ConversationMessage[]): ConversationMessage[] {
  return messages.map(({ siblings: _siblings, ...message }) => message);
}

describe.each(DATABASE_KINDS)('conversation flows over HTTP on %s', (kind) => {
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

  /** Streams a conversation from `after` until `runId` ends, while `send` starts it. */
  async function streamRun(
    conversationId: string,
    after: number,
    start: () => Promise<string>,
  ): Promise<{ events: WorkbenchEvent[]; runId: string }> {
    let runId = '';
    const reading = readEvents({
      url: server.url,
      token: server.token,
      conversationId,
      after,
      until: (event) => runId !== '' && isRunEnd(event, runId),
    });
    runId = await start();
    return { events: await reading, runId };
  }

  it('a message streams over SSE to the end of its run, and the Query holds exactly what the stream built', async () => {
    const conversation = await server.call<{ id: string; last_seq: number }>(
      'POST',
      '/api/conversations',
      {},
    );
    server.fake.push(fakeTextReply('Hel', 'lo, ', 'world'));
    const { events, runId } = await streamRun(conversation.id, 0, async () => {
      const sent = await server.call<{ run: { id: string } }>(
        'POST',
        `/api/conversations/${conversation.id}/messages`,
        {
          text: 'Say hello',
        },
      );
      return sent.run.id;
    });
    const seqs = events.map((event) => event.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['run.created', 'run.phase', 'message.delta', 'run.completed']),
    );
    for (const event of events) expect(event).toMatchObject({ conversation_id: conversation.id, v: 1 });

    const view = await server.call<ConversationView>('GET', `/api/conversations/${conversation.id}`);
    const mirror = new ConversationProjection();
    for (const event of events) mirror.apply(event);
    expect(withoutSiblings(view.messages)).toEqual(mirror.messages());
    expect(view.messages.map((message) => [message.role, message.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete'],
    ]);
    expect(view.messages[1]?.parts).toEqual([{ type: 'text', text: 'Hello, world', status: 'complete' }]);
    expect(view.messages[1]?.usage).toMatchObject({ model_calls: 1, tool_calls: 0 });
    expect(view.conversation).toMatchObject({
      title: 'Say hello',
      title_source: 'auto',
      active_run_id: runId,
    });
    expect(view.last_seq).toBe(events.at(-1)?.seq);
    expect(view.in_flight_run).toBeNull();
  });

  it('a tool the model calls runs as a child run and shows as tool_call and tool_result parts', async () => {
    await server.call('POST', '/api/components', {
      kind: 'tool',
      name: 'shout',
      layer: 'global',
      front_matter: {
        parameters: [{ name: 'text', type: 'string', required: true }],
        execution: { command: './shout.sh' },
      },
      body: 'Repeats the text in capitals.',
      files: [{ path: 'shout.sh', content: '#!/bin/sh\nread input\necho "HELLO FROM THE TOOL"\n' }],
    });
    server.fake.push(fakeToolCallReply('shout', { text: 'hello' }), fakeTextReply('The tool said hello.'));
    const { conversationId, runId } = await sendFirstMessage(server, 'Use the shout tool');
    const view = await server.settled(conversationId, runId);
    const assistant = view.messages[1] as ConversationMessage;
    expect(assistant.status).toBe('complete');
    expect(assistant.parts.map((part) => part.type)).toEqual(['tool_call', 'tool_result', 'text']);
    expect(assistant.parts[0]).toMatchObject({
      tool_name: 'shout',
      arguments: '{"text":"hello"}',
      status: 'complete',
    });
    expect(assistant.parts[1]).toMatchObject({
      tool_name: 'shout',
      output: 'HELLO FROM THE TOOL\n',
      is_error: false,
    });
    expect(assistant.usage?.tool_calls).toBe(1);

    const log = await server.call<{ events: WorkbenchEvent[] }>(
      'GET',
      `/api/conversations/${conversationId}/event-log`,
    );
    const call = log.events.find((event) => event.type === 'tool.call');
    if (call?.type !== 'tool.call') throw new Error('no tool.call event');
    const toolRun = await server.call<{ kind: string; parent_run_id: string; status: string }>(
      'GET',
      `/api/runs/${call.payload.tool_run_id}`,
    );
    expect(toolRun).toMatchObject({ kind: 'tool', parent_run_id: runId, status: 'completed' });
    // The model saw the tool's output on its second call.
    const second = server.fake.chatRequests.at(-1)?.body as {
      messages: { role: string; content: unknown }[];
    };
    expect(JSON.stringify(second.messages)).toContain('HELLO FROM THE TOOL');
  });

  it('reasoning arrives as a thinking part before the answer', async () => {
    server.fake.push({
      type: 'stream',
      steps: [
        { type: 'reasoning', text: 'The user wants ' },
        { type: 'reasoning', text: 'a number.' },
        { type: 'text', text: '42' },
      ],
    });
    const { conversationId, runId } = await sendFirstMessage(server, 'Pick a number');
    const view = await server.settled(conversationId, runId);
    expect(view.messages[1]?.parts).toEqual([
      { type: 'thinking', text: 'The user wants a number.', status: 'complete' },
      { type: 'text', text: '42', status: 'complete' },
    ]);
  });

  it('a provider that refuses the key fails the run, with the error as a visible part', async () => {
    server.fake.push({ type: 'unauthorized' });
    const { conversationId, runId } = await sendFirstMessage(server, 'This will fail');
    const view = await server.settled(conversationId, runId);
    const assistant = view.messages[1] as ConversationMessage;
    expect(assistant.status).toBe('failed');
    const error = assistant.parts.at(-1);
    expect(error).toMatchObject({ type: 'error', fatal: true, error: { code: 'PROVIDER_ERROR' } });
    const run = await server.call<{ status: string; error: { code: string } }>('GET', `/api/runs/${runId}`);
    expect(run).toMatchObject({ status: 'failed', error: { code: 'PROVIDER_ERROR' } });
    // The failed run does not block the conversation.
    server.fake.push(fakeTextReply('Back again.'));
    const next = await server.call<{ run: { id: string } }>(
      'POST',
      `/api/conversations/${conversationId}/messages`,
      {
        text: 'Try again',
      },
    );
    expect((await server.settled(conversationId, next.run.id)).messages.at(-1)?.status).toBe('complete');
  });

  it('conversations are listed newest first in pages, found by title (Latin and CJK), renamed and deleted', async () => {
    const project = await server.call<{ id: string }>('POST', '/api/projects', { name: 'Listing' });
    const titles = ['Fix the Parser', 'Release notes', '修复解析器的问题', 'Parser benchmarks', 'Groceries'];
    const ids: string[] = [];
    for (const title of titles) {
      const created = await server.call<{ id: string }>('POST', '/api/conversations', {
        project_id: project.id,
        title,
      });
      ids.push(created.id);
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    const first = await server.call<{ conversations: { id: string }[]; next_cursor?: string }>(
      'GET',
      `/api/conversations?project_id=${project.id}&limit=2`,
    );
    expect(first.conversations.map((entry) => entry.id)).toEqual([ids[4], ids[3]]);
    const second = await server.call<{ conversations: { id: string }[]; next_cursor?: string }>(
      'GET',
      `/api/conversations?project_id=${project.id}&limit=2&cursor=${first.next_cursor ?? ''}`,
    );
    expect(second.conversations.map((entry) => entry.id)).toEqual([ids[2], ids[1]]);
    const third = await server.call<{ conversations: { id: string }[]; next_cursor?: string }>(
      'GET',
      `/api/conversations?project_id=${project.id}&limit=2&cursor=${second.next_cursor ?? ''}`,
    );
    expect(third.conversations.map((entry) => entry.id)).toEqual([ids[0]]);
    expect(third.next_cursor).toBeUndefined();

    const search = async (query: string): Promise<string[]> =>
      (
        await server.call<{ conversations: { title: string }[] }>(
          'GET',
          `/api/conversations?project_id=${project.id}&q=${encodeURIComponent(query)}`,
        )
      ).conversations.map((entry) => entry.title);
    expect((await search('parser')).sort()).toEqual(['Fix the Parser', 'Parser benchmarks']);
    expect(await search('解析器')).toEqual(['修复解析器的问题']);
    expect(await search('100%')).toEqual([]);

    const renamed = await server.call<{ title: string; title_source: string }>(
      'PATCH',
      `/api/conversations/${ids[4]}`,
      {
        title: 'Shopping list',
      },
    );
    expect(renamed).toMatchObject({ title: 'Shopping list', title_source: 'user' });
    expect(await search('shopping')).toEqual(['Shopping list']);

    expect((await server.request('DELETE', `/api/conversations/${ids[4]}`)).status).toBe(204);
    expect((await server.request('GET', `/api/conversations/${ids[4]}`)).status).toBe(404);
    expect((await server.request('DELETE', `/api/projects/${project.id}`)).body).toMatchObject({
      error: { code: 'CONFLICT' },
    });
    expect((await server.request('DELETE', `/api/projects/${project.id}?force=true`)).status).toBe(204);
    expect((await server.request('GET', `/api/conversations/${ids[0]}`)).status).toBe(404);
  });

  it('a read cursor moves forward only, is announced to other clients, and reading everything leaves nothing unread', async () => {
    server.fake.push(fakeTextReply('read me'));
    const { conversationId, runId } = await sendFirstMessage(server, 'Mark me read');
    const view = await server.settled(conversationId, runId);
    expect(view.conversation.read_seq).toBe(0);
    const partly = await server.call<{ read_seq: number; last_seq: number }>(
      'PUT',
      `/api/conversations/${conversationId}/read`,
      {
        seq: 3,
      },
    );
    expect(partly.read_seq).toBe(3);
    const back = await server.call<{ read_seq: number }>('PUT', `/api/conversations/${conversationId}/read`, {
      seq: 1,
    });
    expect(back.read_seq).toBe(3);
    const all = await server.call<{ read_seq: number; last_seq: number }>(
      'PUT',
      `/api/conversations/${conversationId}/read`,
      {
        seq: 1_000_000,
      },
    );
    expect(all.read_seq).toBe(all.last_seq);
    const log = await server.call<{ events: WorkbenchEvent[] }>(
      'GET',
      `/api/conversations/${conversationId}/event-log`,
    );
    expect(log.events.at(-1)).toMatchObject({
      type: 'conversation.updated',
      payload: { read_seq: all.last_seq },
    });
    const listed = await server.call<{ conversations: { id: string; read_seq: number }[] }>(
      'GET',
      '/api/conversations',
    );
    expect(listed.conversations[0]).toMatchObject({ id: conversationId, read_seq: all.last_seq });
  });

  it('projects keep a workspace directory that becomes the agent’s working directory', async () => {
    const { mkdir, writeFile } = await import('node:fs/promises');
    const directory = `${server.directories.root}/workspace-a`;
    await mkdir(`${directory}/.youyou`, { recursive: true });
    await writeFile(`${directory}/.youyou/AGENT.md`, 'Project instructions: answer in French.');
    const project = await server.call<{ id: string; directory: string }>('POST', '/api/projects', {
      name: 'French',
      directory,
    });
    expect(project.directory).toBe(directory);
    const conversation = await server.call<{ id: string }>('POST', '/api/conversations', {
      project_id: project.id,
    });
    server.fake.push(fakeTextReply('Bonjour.'));
    const sent = await server.call<{ run: { id: string } }>(
      'POST',
      `/api/conversations/${conversation.id}/messages`,
      {
        text: 'Hello',
      },
    );
    await server.settled(conversation.id, sent.run.id);
    const request = server.fake.chatRequests.at(-1)?.body as {
      messages: { role: string; content: unknown }[];
    };
    expect(JSON.stringify(request.messages[0])).toContain('answer in French');
  });
});

describe('an Anthropic provider, against the fake Messages API', () => {
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    server = await startTestServer({ database, wire: 'anthropic' });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('streams thinking and text, sends the stored key, and lists the provider’s models', async () => {
    server.fake.push({
      type: 'stream',
      steps: [
        { type: 'reasoning', text: 'Considering.' },
        { type: 'text', text: 'Bonjour' },
      ],
    });
    const { conversationId, runId } = await sendFirstMessage(server, 'Greet me');
    const view = await server.settled(conversationId, runId);
    expect(view.messages[1]?.parts).toEqual([
      { type: 'thinking', text: 'Considering.', status: 'complete' },
      { type: 'text', text: 'Bonjour', status: 'complete' },
    ]);
    expect(server.fake.chatRequests.at(-1)?.headers['x-api-key']).toBe('sk-fake-key-for-tests-0001');
    const models = await server.call<{ models: { id: string }[] }>('GET', '/api/models');
    expect(models.models.map((model) => model.id)).toEqual(['fake/fake-model']);
  });
});
