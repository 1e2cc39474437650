import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cancelGrace } from '../../src/mcp/mcp-cancel-grace.ts';

describe('the cancel grace of an MCP call', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('a call is cancelled only when the grace has passed after the turn’s cancel, with its reason', () => {
    const turn = new AbortController();
    const grace = cancelGrace(turn.signal, 1_000);
    vi.advanceTimersByTime(5_000);
    expect(grace.signal.aborted).toBe(false);
    turn.abort('the user cancelled');
    vi.advanceTimersByTime(999);
    expect(grace.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(grace.signal.reason).toBe('the user cancelled');
  });

  it('a call that started after the cancel still gets the whole grace', () => {
    const turn = new AbortController();
    turn.abort();
    const grace = cancelGrace(turn.signal, 1_000);
    vi.advanceTimersByTime(999);
    expect(grace.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(grace.signal.aborted).toBe(true);
  });

  it('a call that answered within the grace is never cancelled afterwards', () => {
    const turn = new AbortController();
    const grace = cancelGrace(turn.signal, 1_000);
    turn.abort();
    vi.advanceTimersByTime(500);
    grace.dispose();
    vi.advanceTimersByTime(5_000);
    expect(grace.signal.aborted).toBe(false);
  });

  it('a call that answered before any cancel is not cancelled by a later one', () => {
    const turn = new AbortController();
    const grace = cancelGrace(turn.signal, 1_000);
    grace.dispose();
    turn.abort();
    vi.advanceTimersByTime(5_000);
    expect(grace.signal.aborted).toBe(false);
  });
});
