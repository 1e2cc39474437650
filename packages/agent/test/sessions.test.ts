import {
  AgentError,
  InMemorySessionStorage,
  type Plugin,
  type SessionRecord,
  type SessionStorage,
} from '@youyou/agent';
import { textReply, toolCallReply } from '@youyou/testing';
import { describe, expect, it } from 'vitest';
import { collect, deferred, ofType, testAgent, tool } from './helpers.ts';

async function rejection(promise: Promise<unknown>): Promise<AgentError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AgentError);
  return error as AgentError;
}

/** A storage whose appends fail while `failing` is true. */
class FlakyStorage extends InMemorySessionStorage implements SessionStorage {
  failing = false;
  override async append(sessionId: string, records: readonly SessionRecord[]): Promise<void> {
    if (this.failing) throw new Error('disk full');
    return super.append(sessionId, records);
  }
}

describe('the single-session model (spec §6.2)', () => {
  it('a second session while one is open fails with SESSION_BUSY', async () => {
    const { agent } = await testAgent();
    const first = await agent.newSession();
    expect((await rejection(agent.newSession())).code).toBe('SESSION_BUSY');
    await first.close();
    const second = await agent.newSession();
    expect(second.id).not.toBe(first.id);
  });

  it('concurrent newSession calls: exactly one gets a session, the others SESSION_BUSY', async () => {
    const { agent } = await testAgent();
    const results = await Promise.allSettled([agent.newSession(), agent.newSession(), agent.newSession()]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results.filter((entry) => entry.status === 'rejected')) {
      expect((result as PromiseRejectedResult).reason).toMatchObject({ code: 'SESSION_BUSY' });
    }
  });

  it('resume while a session is open fails with SESSION_BUSY', async () => {
    const storage = new InMemorySessionStorage();
    const { agent, provider } = await testAgent({ sessionStorage: storage });
    provider.enqueue(textReply('x'));
    const first = await agent.newSession();
    await collect(first.send('hi'));
    expect((await rejection(agent.resumeSession(first.id))).code).toBe('SESSION_BUSY');
  });

  it('a second send while a turn runs fails with SESSION_BUSY', async () => {
    const { agent, provider } = await testAgent();
    provider.enqueue([{ type: 'text_delta', text: 'x' }, { type: 'hang' }]);
    const session = await agent.newSession();
    const turn = session.send('one');
    const iterator = turn[Symbol.asyncIterator]();
    await iterator.next();
    expect(() => session.send('two')).toThrow(expect.objectContaining({ code: 'SESSION_BUSY' }));
    turn.cancel();
    while (!(await iterator.next()).done) {
      // drain
    }
  });

  it('send after close fails with SESSION_NOT_FOUND', async () => {
    const { agent } = await testAgent();
    const session = await agent.newSession();
    await session.close();
    expect(() => session.send('hi')).toThrow(expect.objectContaining({ code: 'SESSION_NOT_FOUND' }));
  });

  it('closing a session cancels its running turn first', async () => {
    const { agent, provider } = await testAgent();
    provider.enqueue([{ type: 'text_delta', text: 'x' }, { type: 'hang' }]);
    const session = await agent.newSession();
    const turn = session.send('go');
    const iterator = turn[Symbol.asyncIterator]();
    await iterator.next();
    const closing = session.close();
    const rest = [];
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next())
      rest.push(next.value);
    await closing;
    expect(rest.at(-1)?.type).toBe('TurnCancelled');
    expect(agent.activeSession).toBeUndefined();
  });

  it('shutdown closes the open session (SessionEnd fires) and shuts plugins down in reverse', async () => {
    const order: string[] = [];
    const plugin = (id: string): Plugin => ({
      id,
      displayName: id,
      description: id,
      apply: (hooks) =>
        hooks.tap('SessionEnd', ({ messageCount }) => void order.push(`${id} session end ${messageCount}`)),
      shutdown: () => void order.push(`${id} shutdown`),
    });
    const { agent, provider } = await testAgent({ plugins: [plugin('a'), plugin('b')] });
    provider.enqueue(textReply('x'));
    const session = await agent.newSession();
    await collect(session.send('hi'));
    await agent.shutdown();
    // messageCount counts user and assistant messages, as SessionSummary does.
    expect(order).toEqual(['a session end 2', 'b session end 2', 'b shutdown', 'a shutdown']);
    expect(session.closed).toBe(true);
    expect((await rejection(agent.newSession())).code).toBe('SESSION_BUSY');
  });
});

describe('resume (spec §6.2)', () => {
  it('resuming an unknown id fails with SESSION_NOT_FOUND', async () => {
    const { agent } = await testAgent({ sessionStorage: new InMemorySessionStorage() });
    const error = await rejection(agent.resumeSession('missing'));
    expect(error).toMatchObject({ code: 'SESSION_NOT_FOUND', source: 'storage' });
  });

  it('resuming without a SessionStorage fails with SESSION_NOT_FOUND', async () => {
    const { agent } = await testAgent();
    expect((await rejection(agent.resumeSession('anything'))).code).toBe('SESSION_NOT_FOUND');
  });

  it('a resumed session continues with the full history, tool calls included', async () => {
    const storage = new InMemorySessionStorage();
    const { agent, provider } = await testAgent({
      sessionStorage: storage,
      tools: [tool('lookup', () => ({ content: '42' }))],
    });
    provider.enqueue(
      toolCallReply([{ toolName: 'lookup', callId: 'c1' }]),
      textReply('It is 42.'),
      textReply('You asked about 42.'),
    );
    const session = await agent.newSession({ systemPrompt: 'Be terse.' });
    await collect(session.send('What is the answer?'));
    const before = session.messages.slice();
    await session.close();

    const resumed = await agent.resumeSession(session.id);
    expect(resumed.id).toBe(session.id);
    expect(resumed.messages).toEqual(before);
    await collect(resumed.send('What did I ask?'));
    const request = provider.requests[2];
    expect(request?.messages.slice(0, before.length)).toEqual(before);
    expect(request?.systemPrompt.startsWith('# Instructions\n\nBe terse.')).toBe(true);
    const records = (await storage.load(session.id)) ?? [];
    expect(records.map((record) => record.sequence)).toEqual(records.map((_record, index) => index));
    expect(records.filter((record) => record.type === 'metadata' && record.kind === 'title')).toHaveLength(1);
  });

  it('a failing storage load is reported as STORAGE_ERROR', async () => {
    const storage = new InMemorySessionStorage();
    storage.load = () => Promise.reject(new Error('permission denied'));
    const { agent } = await testAgent({ sessionStorage: storage });
    expect((await rejection(agent.resumeSession('x'))).code).toBe('STORAGE_ERROR');
  });
});

describe('storage failures lose nothing', () => {
  it('a failed append is a non-fatal STORAGE_ERROR event and the records are written on the next success', async () => {
    const storage = new FlakyStorage();
    const { agent, provider } = await testAgent({ sessionStorage: storage });
    provider.enqueue(textReply('first answer'), textReply('second answer'));
    const session = await agent.newSession();
    storage.failing = true;
    const first = await collect(session.send('one'));
    const warnings = ofType(first, 'Error');
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings[0]).toMatchObject({ fatal: false, error: { code: 'STORAGE_ERROR', retryable: true } });
    expect(first.at(-1)).toMatchObject({ type: 'TurnComplete', status: 'completed' });
    storage.failing = false;
    await collect(session.send('two'));
    const records = (await storage.load(session.id)) ?? [];
    const messages = records.filter(
      (record) => record.type === 'user_message' || record.type === 'assistant_message',
    );
    expect(messages.map((record) => (record.type === 'assistant_message' ? record.content : 'user'))).toEqual(
      ['user', 'first answer', 'user', 'second answer'],
    );
    expect(records.map((record) => record.sequence)).toEqual(records.map((_record, index) => index));
  });

  it('a failing storage at session start fails newSession with STORAGE_ERROR and frees the agent', async () => {
    const storage = new FlakyStorage();
    storage.failing = true;
    const { agent } = await testAgent({ sessionStorage: storage });
    expect((await rejection(agent.newSession())).code).toBe('STORAGE_ERROR');
    storage.failing = false;
    await expect(agent.newSession()).resolves.toBeDefined();
  });
});

describe('session close', () => {
  it('close() waits for a turn cancelled by it and runs once even when called twice', async () => {
    const ended = deferred();
    const plugin: Plugin = {
      id: 'end',
      displayName: 'End',
      description: 'Counts SessionEnd.',
      apply: (hooks) => hooks.tap('SessionEnd', () => ended.resolve()),
    };
    const { agent } = await testAgent({ plugins: [plugin] });
    const session = await agent.newSession();
    await Promise.all([session.close(), session.close()]);
    await ended.promise;
    expect(agent.activeSession).toBeUndefined();
  });
});
