import { describe, expect, it } from 'vitest';
import { collect, testAgent } from './helpers.ts';

describe('a long streamed reply', () => {
  it('keeps every delta in order in the output and in the next request, across the text gathering batches', async () => {
    const { agent, provider } = await testAgent();
    const pieces = Array.from({ length: 1_000 }, (_, index) => `${index},`);
    provider.enqueue([
      ...pieces.map((text) => ({ type: 'text_delta' as const, text })),
      { type: 'done' as const },
    ]);
    const session = await agent.newSession();
    const events = await collect(session.send('count'));
    expect(events.at(-1)).toMatchObject({ type: 'TurnComplete', output: pieces.join('') });
    provider.enqueue([{ type: 'text_delta', text: 'ok' }, { type: 'done' }]);
    await collect(session.send('next'));
    expect(provider.requests[1]?.messages[1]).toMatchObject({ role: 'assistant', content: pieces.join('') });
  });
});
