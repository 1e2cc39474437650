import { describe, expect, it } from 'vitest';
import { collect, ofType, testAgent, textOf } from './helpers.ts';

describe('how a model call ended reaches the turn (finishReason, refusals)', () => {
  it('a reply cut off at the token limit ends the turn with finishReason length', async () => {
    const { agent, provider } = await testAgent();
    provider.enqueue([
      { type: 'text_delta', text: 'The first half of a long ans' },
      { type: 'done', finishReason: 'length' },
    ]);
    const events = await collect((await agent.newSession()).send('write a lot'));
    expect(events.at(-1)).toMatchObject({
      type: 'TurnComplete',
      status: 'completed',
      finishReason: 'length',
    });
  });

  it('a reply blocked by the provider filter ends the turn with finishReason content_filter', async () => {
    const { agent, provider } = await testAgent();
    provider.enqueue([{ type: 'done', finishReason: 'content_filter' }]);
    const events = await collect((await agent.newSession()).send('something filtered'));
    expect(events.at(-1)).toMatchObject({ type: 'TurnComplete', finishReason: 'content_filter' });
  });

  it('a refusal reaches the user as text marked as a refusal and the turn ends as a refusal', async () => {
    const { agent, provider } = await testAgent();
    provider.enqueue([
      { type: 'refusal_delta', text: "I'm sorry, I can't " },
      { type: 'refusal_delta', text: 'help with that.' },
      { type: 'done', finishReason: 'stop' },
    ]);
    const session = await agent.newSession();
    const events = await collect(session.send('something refused'));
    expect(textOf(events)).toBe("I'm sorry, I can't help with that.");
    expect(ofType(events, 'TextDelta').every((event) => event.refusal === true)).toBe(true);
    expect(events.at(-1)).toMatchObject({
      type: 'TurnComplete',
      finishReason: 'refusal',
      output: "I'm sorry, I can't help with that.",
    });
    provider.enqueue([{ type: 'text_delta', text: 'ok' }, { type: 'done' }]);
    await collect(session.send('next'));
    expect(provider.requests[1]?.messages[1]).toMatchObject({
      role: 'assistant',
      content: "I'm sorry, I can't help with that.",
    });
  });
});
