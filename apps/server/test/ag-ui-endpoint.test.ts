import { randomUUID } from 'node:crypto';
import { HttpAgent } from '@ag-ui/client';
import type { BaseEvent } from '@ag-ui/core';
import { EventSchemas } from '@ag-ui/core/schemas';
import { fakeTextReply } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationMessage } from '@youyou/contracts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { EVERYTHING_SERVER } from './support/mcp-servers.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

function agentFor(server: TestServer, threadId: string = randomUUID()): HttpAgent {
  return new HttpAgent({
    url: `${server.url}/api/ag-ui`,
    headers: { authorization: `Bearer ${server.token}` },
    threadId,
  });
}

function userMessage(content: string) {
  return { id: randomUUID(), role: 'user' as const, content };
}

describe.each(DATABASE_KINDS)('the AG-UI endpoint on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database });
    await server.call('POST', '/api/mcp/servers', {
      name: 'everything',
      transport: { type: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
    });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('the official HttpAgent runs a turn with a server-side tool call and gets the AG-UI events it expects', async () => {
    server.fake.push(
      {
        type: 'stream',
        steps: [
          { type: 'reasoning', text: 'An echo will do.' },
          { type: 'text', text: 'Let me check. ' },
          { type: 'tool_call', name: 'everything__echo', arguments: { message: 'from AG-UI' } },
        ],
      },
      fakeTextReply('The tool ', 'said hi.'),
    );
    const agent = agentFor(server);
    agent.messages = [userMessage('Echo something')];
    const events: BaseEvent[] = [];
    const { newMessages } = await agent.runAgent(
      { runId: 'client-run-1' },
      { onEvent: ({ event }) => void events.push(event) },
    );
    for (const event of events) expect(EventSchemas.safeParse(event).success).toBe(true);
    // Deltas are committed in small batches, so the number of CONTENT events may vary.
    const types = events
      .map((event) => event.type)
      .filter((type, index, all) => !(type.endsWith('_CONTENT') && all[index - 1] === type));
    expect(types).toEqual([
      'RUN_STARTED',
      'REASONING_START',
      'REASONING_MESSAGE_START',
      'REASONING_MESSAGE_CONTENT',
      'REASONING_MESSAGE_END',
      'REASONING_END',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'TOOL_CALL_RESULT',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED',
    ]);
    const started = events[0] as BaseEvent & {
      threadId: string;
      runId: string;
      metadata: { youyou: { conversation_id: string } };
    };
    expect(started).toMatchObject({ threadId: agent.threadId, runId: 'client-run-1' });
    const finished = events.at(-1) as BaseEvent & { outcome: unknown; usage: unknown[] };
    expect(finished.outcome).toEqual({ type: 'success' });
    expect(finished.usage).toHaveLength(1);
    // The client's own message state, built by the client from our events.
    const assistant = newMessages.find(
      (message) => message.role === 'assistant' && 'toolCalls' in message && message.toolCalls !== undefined,
    );
    expect(assistant).toMatchObject({
      toolCalls: [{ function: { name: 'everything__echo', arguments: '{"message":"from AG-UI"}' } }],
    });
    const tool = newMessages.find((message) => message.role === 'tool');
    expect(tool).toMatchObject({ content: 'Echo: from AG-UI' });
    expect(newMessages.at(-1)).toMatchObject({ role: 'assistant', content: 'The tool said hi.' });

    // The thread is a workbench conversation the user can open.
    const view = await server.call<{ messages: ConversationMessage[] }>(
      'GET',
      `/api/conversations/${agent.threadId}`,
    );
    expect(started.metadata.youyou.conversation_id).toBe(agent.threadId);
    expect(view.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(view.messages[1]?.parts.map((part) => part.type)).toEqual([
      'thinking',
      'text',
      'tool_call',
      'tool_result',
      'text',
    ]);
  });

  it('the next turn on the same thread continues the conversation with only the new message', async () => {
    const agent = agentFor(server);
    server.fake.push(fakeTextReply('First answer.'));
    agent.messages = [userMessage('First question')];
    await agent.runAgent({});
    server.fake.push(fakeTextReply('Second answer.'));
    agent.messages.push(userMessage('Second question'));
    await agent.runAgent({});
    expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Second answer.' });
    const view = await server.call<{ messages: ConversationMessage[] }>(
      'GET',
      `/api/conversations/${agent.threadId}`,
    );
    expect(view.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    const secondUser = view.messages[2]?.parts[0];
    expect(secondUser).toMatchObject({ type: 'text', text: 'Second question' });
  });

  it('a failing model ends the AG-UI run with RUN_ERROR carrying the machine code', async () => {
    server.fake.push({ type: 'unauthorized' });
    const agent = agentFor(server);
    agent.messages = [userMessage('Will fail')];
    const errors: unknown[] = [];
    await agent.runAgent({}, { onRunErrorEvent: ({ event }) => void errors.push(event) }).catch(() => {});
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ type: 'RUN_ERROR', code: expect.any(String) as string });
  });

  it('bad input and a missing token are refused before any run starts', async () => {
    const noUser = await server.request<{ error: { code: string } }>('POST', '/api/ag-ui', {
      body: {
        threadId: 't-1',
        runId: 'r-1',
        messages: [{ id: 'm', role: 'assistant', content: 'hi' }],
        tools: [],
        context: [],
      },
    });
    expect([noUser.status, noUser.body.error.code]).toEqual([400, 'INVALID_INPUT']);
    const notInput = await server.request<{ error: { code: string } }>('POST', '/api/ag-ui', {
      body: { threadId: 7 },
    });
    expect([notInput.status, notInput.body.error.code]).toEqual([400, 'INVALID_INPUT']);
    const badThread = await server.request<{ error: { code: string } }>('POST', '/api/ag-ui', {
      body: { threadId: '../etc', runId: 'r', messages: [userMessage('x')] },
    });
    expect([badThread.status, badThread.body.error.code]).toEqual([400, 'INVALID_INPUT']);
    const anonymous = await server.request<{ error: { code: string } }>('POST', '/api/ag-ui', {
      token: null,
      body: { threadId: 't-2', runId: 'r', messages: [userMessage('x')] },
    });
    expect([anonymous.status, anonymous.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
    const crossSite = await server.request<{ error: { code: string } }>('POST', '/api/ag-ui', {
      headers: { origin: 'https://evil.example' },
      body: { threadId: 't-3', runId: 'r', messages: [userMessage('x')] },
    });
    expect([crossSite.status, crossSite.body.error.code]).toEqual([403, 'ORIGIN_NOT_ALLOWED']);
    const listed = await server.call<{ conversations: { id: string }[] }>('GET', '/api/conversations');
    expect(listed.conversations.map((conversation) => conversation.id)).not.toContain('t-2');
  });

  it('a client that aborts the run cancels it', async () => {
    server.fake.push({
      type: 'stream',
      stepDelayMs: 200,
      steps: Array.from({ length: 50 }, () => ({ type: 'text' as const, text: 'slow ' })),
    });
    const agent = agentFor(server);
    agent.messages = [userMessage('Talk slowly')];
    const running = agent.runAgent(
      {},
      {
        onTextMessageContentEvent: () => {
          agent.abortRun();
        },
      },
    );
    await running.catch(() => {});
    const view = await eventuallyEnded(server, agent.threadId);
    expect(view).toBe('cancelled');
  });
});

async function eventuallyEnded(server: TestServer, conversationId: string): Promise<string> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const view = await server.call<{ runs: { status: string }[] }>(
      'GET',
      `/api/conversations/${conversationId}`,
    );
    const status = view.runs[0]?.status;
    if (status !== undefined && !['pending', 'running', 'waiting_hitl'].includes(status)) return status;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the run did not end');
}
