// @vitest-environment happy-dom
import { cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ColumnDivider, LEFT_COLUMN_LIMITS } from '../src/layout/index.ts';

afterEach(cleanup);

function divider(state: { width: number; collapsed: boolean }) {
  const onChange = vi.fn();
  const onPreview = vi.fn();
  const view = render(
    <ColumnDivider
      label="Resize"
      limits={LEFT_COLUMN_LIMITS}
      direction={1}
      onChange={onChange}
      onPreview={onPreview}
      {...state}
    />,
  );
  return { element: view.getByRole('separator', { name: 'Resize' }), onChange, onPreview };
}

function drag(element: HTMLElement, from: number, to: number): void {
  element.setPointerCapture = () => undefined;
  element.hasPointerCapture = () => false;
  fireEvent.pointerDown(element, { button: 0, clientX: from, pointerId: 1 });
  fireEvent.pointerMove(element, { clientX: (from + to) / 2, pointerId: 1 });
  fireEvent.pointerMove(element, { clientX: to, pointerId: 1 });
  fireEvent.pointerUp(element, { clientX: to, pointerId: 1 });
}

describe('ColumnDivider', () => {
  it('is a named, focusable separator with its value', () => {
    const { element } = divider({ width: 272, collapsed: false });
    expect(element.getAttribute('aria-valuenow')).toBe('272');
    expect(element.tabIndex).toBe(0);
  });

  it('previews while dragging and collapses on release past the minimum by more than 40 px', () => {
    const { element, onChange, onPreview } = divider({ width: 272, collapsed: false });
    drag(element, 272, 150);
    expect(onPreview).toHaveBeenCalledWith({ width: 220, collapsed: false, willCollapse: true });
    expect(onChange).toHaveBeenCalledWith({ width: 272, collapsed: true });
  });

  it('a drag that stays within the overshoot resizes to the minimum instead', () => {
    const { element, onChange } = divider({ width: 272, collapsed: false });
    drag(element, 272, 200);
    expect(onChange).toHaveBeenCalledWith({ width: 220, collapsed: false });
  });

  it('double-click toggles; a click without movement changes nothing', () => {
    const { element, onChange } = divider({ width: 300, collapsed: true });
    drag(element, 52, 52);
    expect(onChange).not.toHaveBeenCalled();
    fireEvent.doubleClick(element);
    expect(onChange).toHaveBeenCalledWith({ width: 300, collapsed: false });
  });

  it('arrow keys resize and Enter toggles', () => {
    const { element, onChange } = divider({ width: 300, collapsed: false });
    fireEvent.keyDown(element, { key: 'ArrowRight' });
    expect(onChange).toHaveBeenLastCalledWith({ width: 316, collapsed: false });
    fireEvent.keyDown(element, { key: 'Enter' });
    expect(onChange).toHaveBeenLastCalledWith({ width: 300, collapsed: true });
  });
});
