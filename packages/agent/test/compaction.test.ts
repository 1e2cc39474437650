import {
  abort,
  DEFAULT_COMPACT_PROMPT,
  InMemorySessionStorage,
  type Message,
  type Plugin,
} from '@youyou/agent';
import {
  contextOverflowReply,
  errorReply,
  ScriptedProvider,
  scriptedModel,
  textReply,
  toolCallReply,
} from '@youyou/testing';
import { describe, expect, it } from 'vitest';
import { planCompaction } from '../src/context/compaction-plan.ts';
import { ContextManager } from '../src/context/context-manager.ts';
import { collect, ofType, testAgent, textOf, tool } from './helpers.ts';

const SMALL_WINDOW = 1_000;
const longReply = (letter: string) => textReply(letter.repeat(1_600));

/** A session with two short questions and two long answers: ~650 tokens in a 1,000-token window. */
async function crowdedSession(
  options: {
    compactModel?: boolean;
    config?: NonNullable<Parameters<typeof testAgent>[0]>['config'];
    plugins?: Plugin[];
  } = {},
) {
  const main = new ScriptedProvider({
    id: 'main',
    models: [scriptedModel('small', { contextWindow: SMALL_WINDOW })],
  });
  const summarizer = new ScriptedProvider({
    id: 'summarizer',
    models: [scriptedModel('summarizer', { contextWindow: 50_000 })],
  });
  const storage = new InMemorySessionStorage();
  const { agent } = await testAgent({
    providers: [main, summarizer],
    sessionStorage: storage,
    config: {
      compactThreshold: 0.8,
      ...(options.compactModel === true ? { compactModel: 'summarizer' } : {}),
      ...options.config,
    },
    ...(options.plugins === undefined ? {} : { plugins: options.plugins }),
  });
  main.enqueue(longReply('a'), longReply('b'));
  const session = await agent.newSession({ modelId: 'small' });
  await collect(session.send('first question'));
  await collect(session.send('second question'));
  return { agent, main, summarizer, storage, session };
}

const texts = (messages: readonly Message[] | undefined) =>
  (messages ?? []).map((message) =>
    message.role === 'user'
      ? message.content[0]?.type === 'text'
        ? message.content[0].text
        : ''
      : `${message.role}:${message.role === 'tool' ? message.callId : ''}`,
  );

describe('compaction on the estimate (spec §4.2)', () => {
  it('passing compactThreshold × window summarises the early history before the request', async () => {
    const { main, session } = await crowdedSession();
    main.enqueue(textReply('## Goal\nanswer questions'), textReply('third answer'));
    const events = await collect(session.send('third question'));

    const summaryRequest = main.requests[2];
    expect(summaryRequest?.systemPrompt).toBe(DEFAULT_COMPACT_PROMPT);
    expect(summaryRequest?.tools).toEqual([]);
    const transcript =
      summaryRequest?.messages[0]?.role === 'user' ? summaryRequest.messages[0].content[0] : undefined;
    expect(transcript?.type === 'text' && transcript.text).toContain('[assistant] bbbb');

    const compacted = ofType(events, 'ContextCompacted')[0];
    expect(compacted).toMatchObject({ strategy: 'summary' });
    expect(compacted?.tokensAfter).toBeLessThan(compacted?.tokensBefore ?? 0);
    expect(events.findIndex((event) => event.type === 'ContextCompacted')).toBeLessThan(
      events.findIndex((event) => event.type === 'TextDelta'),
    );

    // The summary request's text never reaches the user's stream (langchainjs #9455).
    expect(textOf(events)).toBe('third answer');

    const next = texts(main.requests[3]?.messages);
    expect(next[0]).toMatch(/^\[Summary of the earlier conversation.*\n\n## Goal\nanswer questions$/s);
    // The latest user messages stay verbatim and in order.
    expect(next.filter((text) => text.endsWith('question'))).toEqual([
      'first question',
      'second question',
      'third question',
    ]);
  });

  it('a configured compactModel and compactPrompt write the summary', async () => {
    const { main, summarizer, session } = await crowdedSession({
      compactModel: true,
      config: { compactPrompt: 'Summarise tersely.' },
    });
    summarizer.enqueue(textReply('terse summary'));
    main.enqueue(textReply('answer'));
    await collect(session.send('third question'));
    expect(summarizer.requests).toHaveLength(1);
    expect(summarizer.requests[0]).toMatchObject({ model: 'summarizer', systemPrompt: 'Summarise tersely.' });
    const transcript = summarizer.requests[0]?.messages[0];
    expect(
      transcript?.role === 'user' && transcript.content[0]?.type === 'text' && transcript.content[0].text,
    ).toContain('[user] first question');
    expect(texts(main.requests[2]?.messages)[0]).toContain('terse summary');
  });

  it('a failed summary falls back to truncation, keeping the most recent messages', async () => {
    const { main, session } = await crowdedSession();
    main.enqueue(errorReply('summary model overloaded'), textReply('answer'));
    const events = await collect(session.send('third question'));
    expect(ofType(events, 'ContextCompacted')[0]).toMatchObject({ strategy: 'truncation' });
    const next = texts(main.requests[3]?.messages);
    expect(next[0]).toContain('removed to fit the context window');
    expect(next.at(-1)).toBe('third question');
    expect(events.at(-1)).toMatchObject({ type: 'TurnComplete', status: 'completed' });
  });

  it('a compactModel no provider serves falls back to truncation', async () => {
    const { main, session } = await crowdedSession({ config: { compactModel: 'gone' } });
    main.enqueue(textReply('answer'));
    const events = await collect(session.send('third question'));
    expect(ofType(events, 'ContextCompacted')[0]).toMatchObject({ strategy: 'truncation' });
  });

  it('a summary request that overflows is retried with the oldest messages dropped', async () => {
    const { main, summarizer, session } = await crowdedSession({ compactModel: true });
    summarizer.enqueue(contextOverflowReply(), textReply('shorter summary'));
    main.enqueue(textReply('answer'));
    const events = await collect(session.send('third question'));
    expect(summarizer.requests).toHaveLength(2);
    const length = (index: number) => {
      const block = summarizer.requests[index]?.messages[0];
      return block?.role === 'user' && block.content[0]?.type === 'text' ? block.content[0].text.length : 0;
    };
    expect(length(1)).toBeLessThanOrEqual(length(0));
    expect(ofType(events, 'ContextCompacted')[0]).toMatchObject({ strategy: 'summary' });
  });

  it('BeforeCompact receives the message count and estimate; Abort skips the compaction', async () => {
    const seen: unknown[] = [];
    const plugin: Plugin = {
      id: 'guard',
      displayName: 'Guard',
      description: 'Blocks compaction.',
      apply: (hooks) =>
        hooks.tap('BeforeCompact', (payload) => {
          seen.push({ messageCount: payload.messageCount, estimatedTokens: payload.estimatedTokens > 0 });
          return abort('keep everything');
        }),
    };
    const { main, session } = await crowdedSession({ plugins: [plugin] });
    main.enqueue(textReply('answer'));
    const events = await collect(session.send('third question'));
    expect(seen).toEqual([{ messageCount: 5, estimatedTokens: true }]);
    expect(ofType(events, 'ContextCompacted')).toHaveLength(0);
    expect(main.requests[2]?.messages).toHaveLength(5);
  });

  it('a resumed session rebuilds the compacted context exactly', async () => {
    const { agent, main, session } = await crowdedSession();
    main.enqueue(textReply('the summary'), textReply('answer'));
    await collect(session.send('third question'));
    const live = session.messages.slice();
    await session.close();
    const resumed = await agent.resumeSession(session.id);
    expect(resumed.messages).toEqual(live);
  });
});

describe('compaction on a context-length error (spec §4.2 fallback trigger)', () => {
  it('the provider overflow compacts and retries the request once', async () => {
    const provider = new ScriptedProvider({ models: [scriptedModel('m', { contextWindow: 100_000 })] });
    const { agent } = await testAgent({ provider });
    provider.enqueue(longReply('a'), longReply('b'));
    const session = await agent.newSession();
    await collect(session.send('one'));
    await collect(session.send('two'));
    provider.enqueue(
      contextOverflowReply('This model maximum context length is 8192 tokens'),
      textReply('summary'),
      textReply('fits now'),
    );
    const events = await collect(session.send('three'));
    expect(ofType(events, 'ContextCompacted')).toHaveLength(1);
    expect(textOf(events)).toBe('fits now');
    expect(events.at(-1)).toMatchObject({ type: 'TurnComplete', status: 'completed', modelCalls: 1 });
  });

  it('a second overflow after compacting fails the turn with PROVIDER_ERROR', async () => {
    const provider = new ScriptedProvider();
    const { agent } = await testAgent({ provider });
    provider.enqueue(longReply('a'), longReply('b'));
    const session = await agent.newSession();
    await collect(session.send('one'));
    await collect(session.send('two'));
    provider.enqueue(contextOverflowReply(), textReply('summary'), contextOverflowReply());
    const events = await collect(session.send('three'));
    expect(ofType(events, 'Error')[0]?.error).toMatchObject({
      code: 'PROVIDER_ERROR',
      retryable: false,
      details: { reason: 'context_length_exceeded' },
    });
  });

  it('after an overflow the retried request is strictly smaller: an old user message is not kept verbatim', async () => {
    // The case: [u1 (1.2 KB), a1, u2], the provider rejects turn 2.
    const { agent, provider } = await testAgent();
    const u1 = `Please review this: ${'x'.repeat(1_200)}`;
    provider.enqueue(textReply('a short answer'));
    const session = await agent.newSession();
    await collect(session.send(u1));
    provider.enqueue(contextOverflowReply(), textReply('The user asked for a review.'), textReply('ok'));
    const events = await collect(session.send('and now?'));
    const size = (messages: readonly Message[] | undefined) => JSON.stringify(messages ?? []).length;
    const failed = provider.requests[1]?.messages;
    const retried = provider.requests[3]?.messages;
    expect(size(retried)).toBeLessThanOrEqual(size(failed) / 2);
    expect(JSON.stringify(retried)).not.toContain('x'.repeat(1_200));
    const compacted = ofType(events, 'ContextCompacted')[0];
    expect(compacted?.tokensAfter).toBeLessThan(compacted?.tokensBefore ?? 0);
    expect(compacted?.messagesRemoved).toBeGreaterThan(0);
    expect(events.at(-1)).toMatchObject({ type: 'TurnComplete', status: 'completed' });
  });

  it('after an overflow a summary too long to fit falls back to truncation', async () => {
    const { agent, provider } = await testAgent();
    provider.enqueue(textReply('a short answer'));
    const session = await agent.newSession();
    await collect(session.send('y'.repeat(1_200)));
    provider.enqueue(contextOverflowReply(), textReply('z'.repeat(5_000)), textReply('ok'));
    const events = await collect(session.send('next'));
    expect(ofType(events, 'ContextCompacted')[0]).toMatchObject({ strategy: 'truncation' });
    expect(JSON.stringify(provider.requests[3]?.messages)).not.toContain('zzzz');
  });

  it('after an overflow the provider limit sets how small the retry must be', async () => {
    const { agent, provider } = await testAgent();
    provider.enqueue(longReply('a'), longReply('b'));
    const session = await agent.newSession();
    await collect(session.send('one'));
    await collect(session.send('two'));
    provider.enqueue(
      [{ type: 'context_length_exceeded', message: 'too long', limit: 100, requested: 1_000 }],
      textReply('s'),
      textReply('ok'),
    );
    const events = await collect(session.send('three'));
    const compacted = ofType(events, 'ContextCompacted')[0];
    expect(compacted?.tokensAfter).toBeLessThanOrEqual((compacted?.tokensBefore ?? 0) * 0.1);
  });

  it('an overflow that compaction cannot make smaller fails with COMPACT_ERROR and changes nothing', async () => {
    const { agent, provider } = await testAgent();
    provider.enqueue(textReply('a'));
    const session = await agent.newSession();
    await collect(session.send('hi'));
    const huge = 'w'.repeat(4_000);
    provider.enqueue(contextOverflowReply(), textReply('summary'));
    const events = await collect(session.send(huge));
    expect(ofType(events, 'Error')[0]?.error).toMatchObject({ code: 'COMPACT_ERROR' });
    expect(ofType(events, 'ContextCompacted')).toHaveLength(0);
    expect(session.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('an overflow with nothing to compact fails with COMPACT_ERROR', async () => {
    const { agent, provider } = await testAgent();
    provider.enqueue(contextOverflowReply());
    const events = await collect((await agent.newSession()).send('a single huge message'));
    expect(ofType(events, 'Error')[0]?.error.code).toBe('COMPACT_ERROR');
    expect(events.at(-1)).toMatchObject({ type: 'TurnComplete', status: 'failed' });
  });
});

describe('the compaction cut', () => {
  const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
  const assistant = (calls: string[] = []): Message => ({
    role: 'assistant',
    content: 'x'.repeat(400),
    toolCalls: calls.map((callId) => ({ callId, toolName: 't', arguments: '{}' })),
    status: 'complete',
  });
  const result = (callId: string): Message => ({
    role: 'tool',
    callId,
    toolName: 't',
    content: 'r'.repeat(400),
    isError: false,
  });

  it('never separates a tool call from its result', () => {
    const messages = [
      user('q1'),
      assistant(['c1', 'c2']),
      result('c1'),
      result('c2'),
      assistant(['c3']),
      result('c3'),
      assistant(),
    ];
    const context = new ContextManager(messages);
    for (let budget = 0; budget < 800; budget += 25) {
      const plan = planCompaction(context.messages, context.sizes, {
        tailBudget: budget,
        recentUserMessages: 3,
      });
      if (plan === undefined) continue;
      expect(messages[plan.keptFrom]?.role).not.toBe('tool');
    }
  });

  it('keeps recent user messages that fall before the cut, oldest first', () => {
    const messages = [
      user('u1'),
      assistant(),
      user('u2'),
      assistant(),
      user('u3'),
      assistant(),
      user('u4'),
      assistant(),
    ];
    const context = new ContextManager(messages);
    const plan = planCompaction(context.messages, context.sizes, { tailBudget: 150, recentUserMessages: 3 });
    expect(plan).toEqual({ keptFrom: 6, keptUserMessages: [2, 4] });
  });

  it('the estimate is kept incrementally: appending adds the message, replacing recomputes', () => {
    const context = new ContextManager();
    context.append(user('a'.repeat(400)));
    expect(context.estimatedTokens).toBe(100);
    context.append(assistant());
    expect(context.estimatedTokens).toBe(200);
    context.replace([user('b'.repeat(40))]);
    expect(context.estimatedTokens).toBe(10);
  });

  it('a tool-heavy turn compacted mid-turn keeps every call with its result', async () => {
    const provider = new ScriptedProvider({
      models: [scriptedModel('small', { contextWindow: SMALL_WINDOW })],
    });
    const { agent } = await testAgent({
      provider,
      tools: [tool('dump', () => ({ content: 'z'.repeat(2_000) }))],
    });
    provider.enqueue(
      toolCallReply([{ toolName: 'dump', callId: 'd1' }]),
      toolCallReply([{ toolName: 'dump', callId: 'd2' }]),
      textReply('summary of dumps'),
      textReply('done'),
    );
    const session = await agent.newSession();
    const events = await collect(session.send('dump twice'));
    expect(ofType(events, 'ContextCompacted')).toHaveLength(1);
    const last = provider.requests.at(-1)?.messages ?? [];
    for (const [index, message] of last.entries()) {
      if (message.role !== 'tool') continue;
      const owner = last.slice(0, index).findLast((candidate) => candidate.role === 'assistant');
      expect(
        owner?.role === 'assistant' && owner.toolCalls.some((call) => call.callId === message.callId),
      ).toBe(true);
    }
    expect(texts(last)).toContain('dump twice');
  });
});
