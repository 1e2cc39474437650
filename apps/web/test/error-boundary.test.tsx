// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from '../src/ui/index.ts';

afterEach(cleanup);

let broken = true;
function Fragile(): string {
  if (broken) throw new Error('bad part');
  return 'fine now';
}

describe('ErrorBoundary', () => {
  it('shows the fallback for a part that fails, and the part again after retry', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <div>
        <span>the rest</span>
        <ErrorBoundary fallback={(error, retry) => <button onClick={retry}>{error.message}</button>}>
          <Fragile />
        </ErrorBoundary>
      </div>,
    );
    expect(screen.getByText('the rest')).toBeTruthy();
    broken = false;
    fireEvent.click(screen.getByRole('button', { name: 'bad part' }));
    expect(screen.getByText('fine now')).toBeTruthy();
    quiet.mockRestore();
  });
});
