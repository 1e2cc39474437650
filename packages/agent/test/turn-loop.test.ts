import {
  AgentError,
  InMemorySessionStorage,
  continueWith,
  abort,
  type Plugin,
  type SessionRecord,
} from '@youyou/agent';
import { errorReply, ScriptedProvider, scriptedModel, textReply, toolCallReply } from '@youyou/testing';
import { describe, expect, it } from 'vitest';
import { collect, delay, ofType, testAgent, textOf, tool } from './helpers.ts';

describe('the turn loop (spec §4.1)', () => {
  it('loops model ↔ tools until the model stops calling tools', async () => {
    const { agent, provider } = await testAgent({ tools: [tool('a'), tool('b')] });
    provider.enqueue(
      toolCallReply([{ toolName: 'a' }]),
      toolCallReply([{ toolName: 'b' }]),
      textReply('all done'),
    );
    const events = await collect((await agent.newSession()).send('go'));
    expect(provider.requests).toHaveLength(3);
    expect(textOf(events)).toBe('all done');
    expect(events.at(-1)).toMatchObject({
      type: 'TurnComplete',
      status: 'completed',
      toolCalls: 2,
      modelCalls: 3,
    });
    const roles = provider.requests[2]?.messages.map((message) => message.role);
    expect(roles).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
  });

  it('every event carries the envelope with a sequence rising by one across turns', async () => {
    const { agent, provider } = await testAgent({ tools: [tool('a')] });
    provider.enqueue(
      toolCallReply([{ toolName: 'a' }]),
      textReply('one', { reasoning: 'thinking' }),
      textReply('two'),
    );
    const session = await agent.newSession();
    const first = await collect(session.send('1'));
    const second = await collect(session.send('2'));
    const all = [...first, ...second];
    expect(all.map((event) => event.sequence)).toEqual(all.map((_event, index) => index));
    for (const event of all) {
      expect(event.sessionId).toBe(session.id);
      expect(typeof event.timestamp).toBe('number');
    }
    expect(new Set(first.map((event) => event.turnId)).size).toBe(1);
    expect(first[0]?.turnId).not.toBe(second[0]?.turnId);
    expect(first.at(-1)?.type).toBe('TurnComplete');
    expect(ofType(first, 'ReasoningDelta').map((event) => event.text)).toEqual(['thinking']);
  });

  it('the turn summary adds usage across model calls', async () => {
    const { agent, provider } = await testAgent({ tools: [tool('a')] });
    provider.enqueue(
      toolCallReply([{ toolName: 'a' }]),
      textReply('x', { usage: { inputTokens: 100, outputTokens: 7 } }),
    );
    const result = await (await agent.newSession()).send('go').done();
    expect(result.state).toBe('completed');
    expect(result.summary.usage).toEqual({ inputTokens: 110, outputTokens: 12 });
  });

  it('turn.done() runs a turn nobody iterates and resolves with its result', async () => {
    const { agent, provider } = await testAgent();
    provider.enqueue(textReply('hello'));
    const turn = (await agent.newSession()).send('hi');
    const result = await turn.done();
    expect(result).toMatchObject({ state: 'completed', summary: { output: 'hello' } });
    expect(turn.state).toBe('completed');
  });

  it('a turn can be iterated only once', async () => {
    const { agent, provider } = await testAgent();
    provider.enqueue(textReply('hello'));
    const turn = (await agent.newSession()).send('hi');
    await collect(turn);
    expect(() => turn[Symbol.asyncIterator]()).toThrow(AgentError);
  });

  it('every message is persisted through the SessionStorage, tool calls and results included', async () => {
    const storage = new InMemorySessionStorage();
    const { agent, provider } = await testAgent({
      tools: [tool('a', () => ({ content: 'A!', metadata: { n: 1 } }))],
      sessionStorage: storage,
    });
    provider.enqueue(
      toolCallReply([{ toolName: 'a', callId: 'c1', arguments: { q: 1 } }], 'let me check'),
      textReply('done'),
    );
    const session = await agent.newSession();
    await collect(session.send('please check'));
    const records = (await storage.load(session.id)) ?? [];
    expect(
      records.map((record) => record.type + (record.type === 'metadata' ? `:${record.kind}` : '')),
    ).toEqual([
      'metadata:session_created',
      'user_message',
      'metadata:title',
      'assistant_message',
      'tool_call',
      'tool_result',
      'assistant_message',
    ]);
    expect(records.map((record) => record.sequence)).toEqual(records.map((_record, index) => index));
    expect(
      records.find(
        (record): record is Extract<SessionRecord, { type: 'tool_result' }> => record.type === 'tool_result',
      ),
    ).toMatchObject({
      callId: 'c1',
      content: 'A!',
      isError: false,
      metadata: { n: 1 },
    });
    const [summary] = (await storage.list()).sessions;
    expect(summary).toMatchObject({ sessionId: session.id, title: 'please check', messageCount: 3 });
  });
});

describe('provider failures', () => {
  it('a provider error fails the turn: Error then TurnComplete(failed), partial text kept as incomplete', async () => {
    const storage = new InMemorySessionStorage();
    const { agent, provider } = await testAgent({ sessionStorage: storage });
    provider.enqueue(
      errorReply('upstream 500', { after: [{ type: 'text_delta', text: 'Half an ans' }] }),
      textReply('again'),
    );
    const session = await agent.newSession();
    const events = await collect(session.send('go'));
    expect(textOf(events)).toBe('Half an ans');
    const error = ofType(events, 'Error')[0];
    expect(error).toMatchObject({
      fatal: true,
      error: { code: 'PROVIDER_ERROR', retryable: true, message: 'upstream 500' },
    });
    expect(events.at(-1)).toMatchObject({
      type: 'TurnComplete',
      status: 'failed',
      error: { code: 'PROVIDER_ERROR' },
    });
    const stored = (await storage.load(session.id))?.find((record) => record.type === 'assistant_message');
    expect(stored).toMatchObject({ content: 'Half an ans', status: 'incomplete', interruptedBy: 'error' });
    await collect(session.send('retry'));
    const messages = provider.requests[1]?.messages ?? [];
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'system', 'user']);
    expect(messages[1]).toMatchObject({ status: 'incomplete', content: 'Half an ans' });
  });

  it('a provider that throws becomes a PROVIDER_ERROR event, not a crash', async () => {
    const { agent, provider } = await testAgent();
    provider.enqueue([{ type: 'throw', error: new Error('socket hang up') }]);
    const events = await collect((await agent.newSession()).send('go'));
    expect(ofType(events, 'Error')[0]?.error).toMatchObject({
      code: 'PROVIDER_ERROR',
      message: 'socket hang up',
      source: 'provider',
    });
    expect(events.at(-1)).toMatchObject({ type: 'TurnComplete', status: 'failed' });
  });

  it('a stream with no first chunk ends with a retryable PROVIDER_ERROR after the first-chunk timeout', async () => {
    const { agent, provider } = await testAgent({
      config: { providerFirstChunkTimeoutMs: 60, providerChunkTimeoutMs: 1000 },
    });
    provider.enqueue([{ type: 'stall' }]);
    const events = await collect((await agent.newSession()).send('go'));
    expect(ofType(events, 'Error')[0]?.error).toMatchObject({ code: 'PROVIDER_ERROR', retryable: true });
    expect(ofType(events, 'Error')[0]?.error.message).toContain('before the first chunk');
  });

  it('a stream that stalls between chunks ends with a retryable PROVIDER_ERROR, keeping the text so far', async () => {
    const { agent, provider } = await testAgent({
      config: { providerFirstChunkTimeoutMs: 1000, providerChunkTimeoutMs: 60 },
    });
    provider.enqueue([{ type: 'text_delta', text: 'partial' }, { type: 'stall' }]);
    const session = await agent.newSession();
    const events = await collect(session.send('go'));
    expect(textOf(events)).toBe('partial');
    expect(ofType(events, 'Error')[0]?.error.message).toContain('between chunks');
    expect(session.messages.at(-2)).toMatchObject({
      role: 'assistant',
      content: 'partial',
      status: 'incomplete',
    });
  });

  it("a provider's retry notice is a non-fatal Error, and its announced wait is not a stall", async () => {
    const { agent, provider } = await testAgent({
      config: { providerFirstChunkTimeoutMs: 40, providerChunkTimeoutMs: 40 },
    });
    const rateLimited = new AgentError('PROVIDER_ERROR', 'HTTP 429: rate limited', { retryable: true });
    provider.enqueue([
      { type: 'retry', attempt: 1, delayMs: 150, error: rateLimited },
      { type: 'delay', ms: 150 },
      ...textReply('after the wait'),
    ]);
    const events = await collect((await agent.newSession()).send('go'));
    expect(ofType(events, 'Error')).toEqual([
      expect.objectContaining({
        fatal: false,
        error: expect.objectContaining({ code: 'PROVIDER_ERROR', details: { attempt: 1, retryInMs: 150 } }),
      }),
    ]);
    expect(textOf(events)).toBe('after the wait');
    expect(events.at(-1)).toMatchObject({ type: 'TurnComplete', status: 'completed' });
  });

  it('a consumer slower than the chunk timeout is not a stall', async () => {
    const { agent, provider } = await testAgent({
      config: { providerFirstChunkTimeoutMs: 40, providerChunkTimeoutMs: 40 },
    });
    provider.enqueue(textReply('slowly read', { chunkSize: 4 }));
    const events = [];
    for await (const event of (await agent.newSession()).send('go')) {
      events.push(event);
      await delay(60);
    }
    expect(textOf(events)).toBe('slowly read');
    expect(ofType(events, 'Error')).toHaveLength(0);
  });

  it('an unexpected extra request is reported by the ScriptedProvider as an error', async () => {
    const { agent } = await testAgent();
    const events = await collect((await agent.newSession()).send('go'));
    expect(ofType(events, 'Error')[0]?.error.message).toContain('no scripted reply left');
  });
});

describe('turn hooks', () => {
  const plugin = (apply: Plugin['apply']): Plugin => ({
    id: 'p',
    displayName: 'P',
    description: 'Test plugin.',
    apply,
  });

  it('TurnStart ContinueWith rewrites the user input and adds dynamic system-prompt sections', async () => {
    const { agent, provider } = await testAgent({
      plugins: [
        plugin((hooks) =>
          hooks.tap('TurnStart', ({ userInput }) =>
            continueWith({ userInput: `${userInput} (be brief)`, dynamicSections: ['Ticket: YY-42'] }),
          ),
        ),
      ],
    });
    provider.enqueue(textReply('ok'));
    const session = await agent.newSession();
    await collect(session.send('explain'));
    const request = provider.requests[0];
    expect(request?.messages[0]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'explain (be brief)' }],
    });
    expect(request?.systemPrompt).toContain('Ticket: YY-42');
    expect(session.systemPrompt().sections.at(-1)).toMatchObject({
      layer: 'dynamic',
      content: 'Ticket: YY-42',
    });
  });

  it('TurnStart Abort fails the turn with HOOK_ABORTED before anything is sent', async () => {
    const { agent, provider } = await testAgent({
      plugins: [plugin((hooks) => hooks.tap('TurnStart', () => abort('outside office hours')))],
    });
    const events = await collect((await agent.newSession()).send('go'));
    expect(ofType(events, 'Error')[0]?.error).toMatchObject({ code: 'HOOK_ABORTED', source: 'plugin' });
    expect(ofType(events, 'Error')[0]?.error.message).toContain('outside office hours');
    expect(provider.requests).toHaveLength(0);
  });

  it('a turn refused before TurnStart (unknown skill) fires neither TurnStart nor TurnEnd', async () => {
    const fired: string[] = [];
    const { agent } = await testAgent({
      plugins: [
        plugin((hooks) => {
          hooks.tap('TurnStart', () => void fired.push('start'));
          hooks.tap('TurnEnd', () => void fired.push('end'));
        }),
      ],
    });
    const events = await collect((await agent.newSession()).send('/nope do it'));
    expect(ofType(events, 'Error')[0]?.error.code).toBe('SKILL_NOT_FOUND');
    expect(fired).toEqual([]);
  });

  it('only the start of the input can escape a slash: later text blocks keep theirs', async () => {
    const { agent, provider } = await testAgent();
    provider.enqueue(textReply('ok'));
    await collect(
      (await agent.newSession()).send([
        { type: 'text', text: '//etc is not a skill' },
        { type: 'text', text: '// a comment, not a skill\nrun();' },
      ]),
    );
    expect(provider.requests[0]?.messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: '/etc is not a skill' },
        { type: 'text', text: '// a comment, not a skill\nrun();' },
      ],
    });
  });

  it('TurnEnd fires once per turn with the assistant output', async () => {
    const outputs: string[] = [];
    const { agent, provider } = await testAgent({
      tools: [tool('a')],
      plugins: [
        plugin((hooks) => hooks.tap('TurnEnd', ({ assistantOutput }) => void outputs.push(assistantOutput))),
      ],
    });
    provider.enqueue(toolCallReply([{ toolName: 'a' }], 'Checking. '), textReply('Done.'));
    await collect((await agent.newSession()).send('go'));
    expect(outputs).toEqual(['Checking. Done.']);
  });
});

describe('tool definitions', () => {
  it('the request carries the tool definitions with name, description and JSON Schema', async () => {
    const provider = new ScriptedProvider({ models: [scriptedModel('m')] }).enqueue(textReply('ok'));
    const { agent } = await testAgent({
      provider,
      tools: [
        tool('a', undefined, { parameters: { type: 'object', properties: { x: { type: 'string' } } } }),
      ],
    });
    await collect((await agent.newSession()).send('go'));
    expect(provider.requests[0]?.tools).toEqual([
      {
        name: 'a',
        description: 'The a tool.',
        parameters: { type: 'object', properties: { x: { type: 'string' } } },
      },
    ]);
  });
});
