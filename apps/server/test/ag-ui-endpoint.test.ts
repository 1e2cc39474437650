import { randomUUID } from 'node:crypto';
import { HttpAgent } from '@ag-ui/client';
import type { BaseEvent } from '@ag-ui/core';
import { EventSchemas } from '@ag-ui/core/schemas';
import {
  fakeAskUserReply,
  fakeReplyAfterToolResult,
  fakeTextReply,
  fakeToolCallReply,
  fakeUpdatePlanReply,
  fakeUpdateTodosReply,
} from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationMessage, PlanboardView } from '@youyou/contracts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { FORMAT_CARD } from './support/hitl.ts';
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
      'STATE_SNAPSHOT',
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

  type Finished = BaseEvent & {
    outcome?: {
      type: string;
      interrupts?: {
        id: string;
        reason: string;
        message?: string;
        toolCallId?: string;
        responseSchema?: unknown;
        metadata?: { youyou: { card: { choices: { id: string; impact: string }[] } } };
      }[];
    };
  };
  const finishedOf = (events: readonly BaseEvent[]): Finished => events.at(-1) as Finished;
  const runStatus = async (conversationId: string) =>
    (
      await server.call<{ runs: { id: string; status: string }[] }>(
        'GET',
        `/api/conversations/${conversationId}`,
      )
    ).runs;

  it('a HITL card ends the AG-UI run with an interrupt; the HttpAgent resumes it with an answer and the same run goes on', async () => {
    server.fake.push(
      fakeAskUserReply({ ...FORMAT_CARD }),
      fakeReplyAfterToolResult((result) => fakeTextReply(`Going with it: ${result}`)),
    );
    const agent = agentFor(server);
    agent.messages = [userMessage('Write the report')];
    const first: BaseEvent[] = [];
    await agent.runAgent({ runId: 'ask-1' }, { onEvent: ({ event }) => void first.push(event) });
    for (const event of first) expect(EventSchemas.safeParse(event).success).toBe(true);
    expect(first.map((event) => event.type)).toEqual([
      'RUN_STARTED',
      'STATE_SNAPSHOT',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'RUN_FINISHED',
    ]);
    const outcome = finishedOf(first).outcome;
    expect(outcome?.type).toBe('interrupt');
    const interrupt = outcome?.interrupts?.[0];
    expect(interrupt).toMatchObject({ reason: 'user_input', message: '采用哪种输出格式？' });
    expect(interrupt?.toolCallId).toBeUndefined();
    // The whole card rides along: each option with its impact, for a front end to draw.
    expect(interrupt?.metadata?.youyou.card.choices.map((choice) => choice.id)).toEqual(['md', 'docx']);
    expect(JSON.stringify(interrupt?.responseSchema)).toContain('"enum":["md","docx"]');
    expect(agent.pendingInterrupts.map((pending) => pending.id)).toEqual([interrupt?.id]);
    // The workbench run waits for the answer (it is not ended by the AG-UI run ending).
    expect((await runStatus(agent.threadId))[0]?.status).toBe('waiting_hitl');

    // The client refuses a run that does not answer the interrupt (AG-UI's coverage rule).
    await expect(agent.runAgent({})).rejects.toThrow(/pending interrupt/);

    const second: BaseEvent[] = [];
    await agent.runAgent(
      {
        runId: 'ask-2',
        resume: [{ interruptId: interrupt?.id ?? '', status: 'resolved', payload: { choice_id: 'docx' } }],
      },
      { onEvent: ({ event }) => void second.push(event) },
    );
    for (const event of second) expect(EventSchemas.safeParse(event).success).toBe(true);
    const types = second
      .map((event) => event.type)
      .filter((type, index, all) => !(type.endsWith('_CONTENT') && all[index - 1] === type));
    expect(types).toEqual([
      'RUN_STARTED',
      'STATE_SNAPSHOT',
      'TOOL_CALL_RESULT',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED',
    ]);
    expect(finishedOf(second).outcome).toEqual({ type: 'success' });
    expect(agent.pendingInterrupts).toEqual([]);
    expect(agent.messages.at(-1)).toMatchObject({
      role: 'assistant',
      content: expect.stringContaining('The user chose "docx"') as string,
    });
    // One workbench run, answered through AG-UI, as the web UI shows it.
    const runs = await runStatus(agent.threadId);
    expect(runs.map((run) => run.status)).toEqual(['completed']);
    const { cards } = await server.call<{ cards: { status: string; resolution: { answer: unknown } }[] }>(
      'GET',
      `/api/conversations/${agent.threadId}/cards`,
    );
    expect(cards[0]).toMatchObject({ status: 'answered', resolution: { answer: { choice_id: 'docx' } } });
  });

  it('a tool confirmation is an approval interrupt naming the tool call; true allows it once, an abandoned one does not run', async () => {
    await server.call('PUT', '/api/tools/current_time', { policy: 'confirm' });
    try {
      server.fake.push(
        fakeToolCallReply('current_time', {}),
        fakeReplyAfterToolResult((result) => fakeTextReply(`Tool: ${result.slice(0, 40)}`)),
      );
      const agent = agentFor(server);
      agent.messages = [userMessage('What time is it?')];
      const first: BaseEvent[] = [];
      await agent.runAgent({}, { onEvent: ({ event }) => void first.push(event) });
      const started = first.find((event) => event.type === 'TOOL_CALL_START') as BaseEvent & {
        toolCallId: string;
      };
      const interrupt = finishedOf(first).outcome?.interrupts?.[0];
      expect(interrupt).toMatchObject({ reason: 'tool_approval', toolCallId: started.toolCallId });
      const second: BaseEvent[] = [];
      await agent.runAgent(
        { resume: [{ interruptId: interrupt?.id ?? '', status: 'resolved', payload: true }] },
        { onEvent: ({ event }) => void second.push(event) },
      );
      const result = second.find((event) => event.type === 'TOOL_CALL_RESULT') as BaseEvent & {
        toolCallId: string;
        content: string;
      };
      expect(result.toolCallId).toBe(started.toolCallId);
      expect(result.content).not.toContain('denied');
      expect(finishedOf(second).outcome).toEqual({ type: 'success' });

      server.fake.push(
        fakeToolCallReply('current_time', {}),
        fakeReplyAfterToolResult((output) => fakeTextReply(`Tool: ${output}`)),
      );
      agent.messages.push(userMessage('And now?'));
      await agent.runAgent({});
      const abandoned = agent.pendingInterrupts[0];
      expect(abandoned?.reason).toBe('tool_approval');
      await agent.runAgent({ resume: [{ interruptId: abandoned?.id ?? '', status: 'cancelled' }] });
      expect(agent.pendingInterrupts).toEqual([]);
      expect(JSON.stringify(server.fake.chatRequests.at(-1)?.body)).toContain(
        'Nobody confirmed the call in time (The AG-UI client abandoned the interrupt.); it did not run.',
      );
      const { cards } = await server.call<{ cards: { card: { id: string }; status: string }[] }>(
        'GET',
        `/api/conversations/${agent.threadId}/cards`,
      );
      expect(cards.find((card) => card.card.id === abandoned?.id)?.status).toBe('expired');
    } finally {
      await server.call('PUT', '/api/tools/current_time', { policy: null });
    }
  });

  it('the plan and todos reach the client as a STATE_SNAPSHOT and JSON Patch STATE_DELTAs', async () => {
    server.fake.push(
      fakeUpdatePlanReply([
        { id: 'a', title: 'Read', status: 'in_progress' },
        { id: 'b', title: 'Write', status: 'pending' },
      ]),
      fakeUpdateTodosReply([{ id: 't1', text: 'Test it' }]),
      fakeUpdatePlanReply([
        { id: 'a', title: 'Read', status: 'done' },
        { id: 'b', title: 'Write', status: 'in_progress' },
      ]),
      fakeTextReply('Planned.'),
    );
    const agent = agentFor(server);
    agent.messages = [userMessage('Plan it')];
    const events: BaseEvent[] = [];
    await agent.runAgent({}, { onEvent: ({ event }) => void events.push(event) });
    const state = events.filter((event) => event.type.startsWith('STATE_'));
    expect(state.map((event) => event.type)).toEqual([
      'STATE_SNAPSHOT',
      'STATE_DELTA',
      'STATE_DELTA',
      'STATE_DELTA',
    ]);
    expect(state[0]).toMatchObject({ snapshot: { plan: { steps: [], version: 0 } } });
    // The last delta changes only what changed: two statuses and the version.
    const last = state.at(-1) as BaseEvent & { delta: { op: string; path: string }[] };
    expect(last.delta.map((operation) => operation.path).sort()).toEqual([
      '/plan/steps/0/status',
      '/plan/steps/1/status',
      '/plan/version',
    ]);
    // The client's state, built by applying the patches, is the workbench's planboard.
    const board = await server.call<PlanboardView>('GET', `/api/conversations/${agent.threadId}/planboard`);
    expect(agent.state).toEqual(board);
  });

  it('a resume entry naming no card is a warning, not a failure; a bad answer is refused before anything streams', async () => {
    const unknown = await fetch(`${server.url}/api/ag-ui`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        threadId: randomUUID(),
        runId: 'r',
        messages: [],
        tools: [],
        context: [],
        state: {},
        resume: [{ interruptId: 'no-such-card', status: 'resolved', payload: 'x' }],
      }),
    });
    expect(unknown.status).toBe(200);
    const frames = (await unknown.text())
      .split('\n\n')
      .filter((frame) => frame.startsWith('data: '))
      .map((frame) => JSON.parse(frame.slice(6)) as BaseEvent & { name?: string; value?: unknown });
    expect(frames.map((frame) => frame.type)).toEqual([
      'RUN_STARTED',
      'STATE_SNAPSHOT',
      'CUSTOM',
      'RUN_FINISHED',
    ]);
    expect(frames[2]).toMatchObject({ name: 'youyou.warning', value: { interrupt_id: 'no-such-card' } });

    server.fake.push(fakeAskUserReply({ ...FORMAT_CARD }), fakeTextReply('ok'));
    const agent = agentFor(server);
    agent.messages = [userMessage('Ask me')];
    await agent.runAgent({});
    const id = agent.pendingInterrupts[0]?.id ?? '';
    const resumeWith = (payload: unknown) =>
      server.request<{ error: { code: string } }>('POST', '/api/ag-ui', {
        body: {
          threadId: agent.threadId,
          runId: 'r2',
          messages: [],
          resume: [{ interruptId: id, status: 'resolved', payload }],
        },
      });
    const notAnOption = await resumeWith({ choice_id: 'pdf' });
    expect([notAnOption.status, notAnOption.body.error.code]).toEqual([422, 'INVALID_ANSWER']);
    const notAnAnswer = await resumeWith(42);
    expect([notAnAnswer.status, notAnAnswer.body.error.code]).toEqual([400, 'INVALID_INPUT']);
    // Nothing was lost: the card still waits and a good answer resumes the run.
    expect((await runStatus(agent.threadId))[0]?.status).toBe('waiting_hitl');
    await agent.runAgent({ resume: [{ interruptId: id, status: 'resolved', payload: '第二个' }] });
    expect(agent.pendingInterrupts).toEqual([]);
    expect(JSON.stringify(server.fake.chatRequests.at(-1)?.body)).toContain('The user chose \\"docx\\"');
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
