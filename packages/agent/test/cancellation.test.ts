import { InMemorySessionStorage, INTERRUPTED_NOTE, type Plugin } from '@youyou/agent';
import { textReply, toolCallReply } from '@youyou/testing';
import { describe, expect, it } from 'vitest';
import { collect, deferred, delay, ofType, testAgent, textOf, tool } from './helpers.ts';

describe('cancellation (spec §6.2)', () => {
  it('cancelling mid-stream keeps the partial text as an incomplete message and ends with TurnCancelled', async () => {
    const storage = new InMemorySessionStorage();
    const { agent, provider } = await testAgent({ sessionStorage: storage });
    provider.enqueue([{ type: 'text_delta', text: 'The answer is' }, { type: 'hang' }]);
    const session = await agent.newSession();
    const turn = session.send('question');
    const events = [];
    for await (const event of turn) {
      events.push(event);
      if (event.type === 'TextDelta') turn.cancel();
    }
    expect(events.at(-1)?.type).toBe('TurnCancelled');
    expect(turn.state).toBe('cancelled');
    expect(provider.signals[0]?.aborted).toBe(true);
    const stored = (await storage.load(session.id))?.find((record) => record.type === 'assistant_message');
    expect(stored).toMatchObject({ content: 'The answer is', status: 'incomplete', interruptedBy: 'cancel' });
    expect(session.messages.slice(-2)).toEqual([
      expect.objectContaining({ role: 'assistant', content: 'The answer is', status: 'incomplete' }),
      { role: 'system', content: INTERRUPTED_NOTE },
    ]);
  });

  it('a cancelled serial batch lets the running tool finish and gives every pending call a cancelled result', async () => {
    const started = deferred();
    const release = deferred();
    const ran: string[] = [];
    const slowWrite = tool(
      'write',
      async () => {
        ran.push('write');
        started.resolve();
        await release.promise;
        return { content: 'written' };
      },
      { mutating: true },
    );
    const { agent, provider } = await testAgent({
      tools: [slowWrite, tool('read', () => (ran.push('read'), { content: 'r' }))],
    });
    provider.enqueue(
      toolCallReply([
        { toolName: 'write', callId: 'w' },
        { toolName: 'read', callId: 'r1' },
        { toolName: 'read', callId: 'r2' },
      ]),
    );
    const session = await agent.newSession();
    const turn = session.send('go');
    const collecting = collect(turn);
    await started.promise;
    turn.cancel();
    release.resolve();
    const events = await collecting;
    expect(ran).toEqual(['write']);
    const ends = ofType(events, 'ToolCallEnd');
    expect(ends.map((event) => [event.callId, event.success])).toEqual([
      ['w', true],
      ['r1', false],
      ['r2', false],
    ]);
    expect(ends[1]?.output).toContain('REQUEST_CANCELLED');
    const results = session.messages.filter((message) => message.role === 'tool');
    expect(results.map((message) => (message.role === 'tool' ? message.callId : ''))).toEqual([
      'w',
      'r1',
      'r2',
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'TurnCancelled', toolCalls: 3 });
  });

  it('a cancelled concurrent batch waits for every running read-only tool and records its result', async () => {
    const startedBoth = [deferred(), deferred()];
    const slowRead = (name: string, index: number) =>
      tool(name, async () => {
        startedBoth[index]?.resolve();
        await delay(30);
        return { content: `${name} done` };
      });
    const { agent, provider } = await testAgent({ tools: [slowRead('a', 0), slowRead('b', 1)] });
    provider.enqueue(toolCallReply([{ toolName: 'a' }, { toolName: 'b' }]));
    const turn = (await agent.newSession()).send('go');
    const collecting = collect(turn);
    await Promise.all(startedBoth.map((entry) => entry.promise));
    turn.cancel();
    const events = await collecting;
    expect(
      ofType(events, 'ToolCallEnd')
        .map((event) => event.output)
        .sort(),
    ).toEqual(['a done', 'b done']);
    expect(events.at(-1)?.type).toBe('TurnCancelled');
  });

  it('tool calls of a reply cut short get cancelled results so each call id has a result', async () => {
    const { agent, provider } = await testAgent({ tools: [tool('a')] });
    provider.enqueue([
      { type: 'tool_call', callId: 'early', toolName: 'a', arguments: '{}' },
      { type: 'hang' },
    ]);
    const session = await agent.newSession();
    const turn = session.send('go');
    setTimeout(() => turn.cancel(), 20);
    const events = await collect(turn);
    expect(ofType(events, 'ToolCallEnd')).toEqual([
      expect.objectContaining({ callId: 'early', success: false }),
    ]);
    expect(session.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'system']);
  });

  it('hooks still fire after a cancel: AfterToolUse for the running tool and TurnEnd', async () => {
    const fired: string[] = [];
    const plugin: Plugin = {
      id: 'observer',
      displayName: 'Observer',
      description: 'Records hooks.',
      apply(hooks) {
        hooks.tap('AfterToolUse', ({ toolName }) => void fired.push(`after ${toolName}`));
        hooks.tap('TurnEnd', () => void fired.push('turn end'));
      },
    };
    const started = deferred();
    const slow = tool('slow', async () => {
      started.resolve();
      await delay(20);
      return { content: 'ok' };
    });
    const { agent, provider } = await testAgent({ tools: [slow], plugins: [plugin] });
    provider.enqueue(toolCallReply([{ toolName: 'slow' }]));
    const turn = (await agent.newSession()).send('go');
    const collecting = collect(turn);
    await started.promise;
    turn.cancel();
    await collecting;
    expect(fired).toEqual(['after slow', 'turn end']);
  });

  it('an AbortSignal passed to send() cancels the turn', async () => {
    const { agent, provider } = await testAgent();
    provider.enqueue([{ type: 'text_delta', text: 'x' }, { type: 'hang' }]);
    const controller = new AbortController();
    const turn = (await agent.newSession()).send('go', { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const events = await collect(turn);
    expect(events.at(-1)?.type).toBe('TurnCancelled');
  });

  it('a turn whose consumer stops iterating is cancelled and its partial text kept', async () => {
    const { agent, provider } = await testAgent();
    provider.enqueue([{ type: 'text_delta', text: 'first' }, { type: 'hang' }], textReply('next'));
    const session = await agent.newSession();
    const turn = session.send('go');
    for await (const event of turn) if (event.type === 'TextDelta') break;
    expect(turn.state).toBe('cancelled');
    expect(session.messages.at(-2)).toMatchObject({
      role: 'assistant',
      content: 'first',
      status: 'incomplete',
    });
    expect(textOf(await collect(session.send('again')))).toBe('next');
  });

  it('resuming a cancelled session loads the incomplete reply followed by the interruption note', async () => {
    const storage = new InMemorySessionStorage();
    const { agent, provider } = await testAgent({ sessionStorage: storage });
    provider.enqueue(
      [{ type: 'text_delta', text: 'Step one is' }, { type: 'hang' }],
      textReply('continuing'),
    );
    const session = await agent.newSession();
    const turn = session.send('explain the steps');
    setTimeout(() => turn.cancel(), 20);
    await collect(turn);
    const live = session.messages.slice();
    await session.close();
    const resumed = await agent.resumeSession(session.id);
    expect(resumed.messages).toEqual(live);
    await collect(resumed.send('go on'));
    const sent = provider.requests[1]?.messages ?? [];
    expect(sent.slice(1, 3)).toEqual([
      expect.objectContaining({ role: 'assistant', content: 'Step one is', status: 'incomplete' }),
      { role: 'system', content: INTERRUPTED_NOTE },
    ]);
  });

  it('cancel after the turn ended changes nothing', async () => {
    const { agent, provider } = await testAgent();
    provider.enqueue(textReply('done'));
    const turn = (await agent.newSession()).send('go');
    await collect(turn);
    turn.cancel();
    expect(turn.state).toBe('completed');
  });
});
