import { describe, expect, it } from 'vitest';
import { endedWithoutTokens } from '../src/agent-tracker/tracker-store.ts';

describe('a sub-agent’s token count in the tracker', () => {
  const none = { input: 0, output: 0 };

  it.each(['cancelled', 'interrupted', 'failed', 'completed'] as const)(
    'reads as not recorded ("—") when it ended %s with no tokens',
    (status) => {
      expect(endedWithoutTokens({ status, tokens: none })).toBe(true);
    },
  );

  it('is a count while it runs, even at zero, and once it recorded any', () => {
    expect(endedWithoutTokens({ status: 'running', tokens: none })).toBe(false);
    expect(endedWithoutTokens({ status: 'pending', tokens: none })).toBe(false);
    expect(endedWithoutTokens({ status: 'cancelled', tokens: { input: 120, output: 0 } })).toBe(false);
  });
});
