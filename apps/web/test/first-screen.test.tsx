// @vitest-environment happy-dom
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReactElement } from 'react';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.resetModules();
});

/** A fresh copy of the module: its hold is module state. */
async function firstScreen() {
  return import('../src/first-screen/index.ts');
}

describe('what the first screen does not show waits until it is drawn', () => {
  it('nothing waits where nothing held it (tests, the tracker window)', async () => {
    const { useFirstScreenDrawn } = await firstScreen();
    const seen: boolean[] = [];
    function Probe(): ReactElement {
      seen.push(useFirstScreenDrawn());
      return <p />;
    }
    render(<Probe />);
    expect(seen).toEqual([true]);
  });

  it('held work is released two frames after the first screen shows its content', async () => {
    vi.useFakeTimers({ toFake: ['requestAnimationFrame', 'cancelAnimationFrame', 'setTimeout'] });
    const { holdUntilFirstScreen, useFirstScreenDrawn, useMarkFirstScreenDrawn } = await firstScreen();
    holdUntilFirstScreen();
    const seen: boolean[] = [];
    function Screen({ ready }: { ready: boolean }): ReactElement {
      useMarkFirstScreenDrawn(ready);
      seen.push(useFirstScreenDrawn());
      return <p />;
    }
    const { rerender } = render(<Screen ready={false} />);
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(seen.at(-1)).toBe(false);
    rerender(<Screen ready />);
    await act(() => vi.advanceTimersByTimeAsync(40));
    expect(seen.at(-1)).toBe(true);
  });

  it('a first screen that never shows releases the work after two seconds at most', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const { holdUntilFirstScreen, useFirstScreenDrawn } = await firstScreen();
    holdUntilFirstScreen();
    const seen: boolean[] = [];
    function Probe(): ReactElement {
      seen.push(useFirstScreenDrawn());
      return <p />;
    }
    render(<Probe />);
    expect(seen.at(-1)).toBe(false);
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(seen.at(-1)).toBe(true);
  });
});
