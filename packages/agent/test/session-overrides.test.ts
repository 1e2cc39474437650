import { InMemorySessionStorage } from '@youyou/agent';
import { describe, expect, it } from 'vitest';
import { collect, testAgent } from './helpers.ts';

describe('one session runs with settings of its own (a workbench profile)', () => {
  it('config overrides reach the model request of that session only', async () => {
    const { agent, provider } = await testAgent({ config: { temperature: 0.9, maxTokens: 500 } });
    provider.enqueue([{ type: 'text_delta', text: 'a' }, { type: 'done' }]);
    const tuned = await agent.newSession({ config: { temperature: 0.1, maxTokens: undefined } });
    await collect(tuned.send('hello'));
    await tuned.close();
    provider.enqueue([{ type: 'text_delta', text: 'b' }, { type: 'done' }]);
    const plain = await agent.newSession();
    await collect(plain.send('hello'));
    expect(provider.requests[0]).toMatchObject({ temperature: 0.1 });
    expect(provider.requests[0]?.maxTokens).toBeUndefined();
    expect(provider.requests[1]).toMatchObject({ temperature: 0.9, maxTokens: 500 });
  });

  it('a resumed session can take another system prompt and settings than it was created with', async () => {
    const sessionStorage = new InMemorySessionStorage();
    const { agent, provider } = await testAgent({ sessionStorage });
    provider.enqueue([{ type: 'text_delta', text: 'first' }, { type: 'done' }]);
    const session = await agent.newSession({ systemPrompt: 'You are the first profile.' });
    await collect(session.send('one'));
    await session.close();
    provider.enqueue([{ type: 'text_delta', text: 'second' }, { type: 'done' }]);
    const resumed = await agent.resumeSession(session.id, {
      systemPrompt: 'You are the second profile.',
      config: { reasoningEffort: 'low' },
    });
    await collect(resumed.send('two'));
    expect(provider.requests[0]?.systemPrompt).toContain('You are the first profile.');
    expect(provider.requests[1]?.systemPrompt).toContain('You are the second profile.');
    expect(provider.requests[1]?.systemPrompt).not.toContain('first profile');
    expect(provider.requests[1]).toMatchObject({ reasoningEffort: 'low' });
  });
});
