import { useRef, useState, type KeyboardEvent, type PointerEvent, type ReactElement } from 'react';
import { keyboardResize, releaseDrag, resolveDrag, type ColumnLimits } from './column-resize.ts';

export interface ColumnDividerProps {
  label: string;
  width: number;
  collapsed: boolean;
  limits: ColumnLimits;
  /** 1: the column is left of the divider (dragging right grows it); -1: right of it. */
  direction: 1 | -1;
  onPreview: (preview: { width: number; collapsed: boolean; willCollapse: boolean } | undefined) => void;
  onChange: (state: { width: number; collapsed: boolean }) => void;
}

/**
 * The draggable edge of a column (spec §4.4): drag to resize between min and max; keep dragging
 * ~40 px past the minimum and release to collapse; double-click toggles; arrow keys resize, Enter
 * toggles. A `separator` with its value, so assistive technology can read and move it.
 */
export function ColumnDivider(props: ColumnDividerProps): ReactElement {
  const { label, width, collapsed, limits, direction, onPreview, onChange } = props;
  const drag = useRef<
    { startX: number; start: { width: number; collapsed: boolean }; moved: boolean } | undefined
  >(undefined);
  const [active, setActive] = useState(false);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>): void => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { startX: event.clientX, start: { width, collapsed }, moved: false };
    setActive(true);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>): void => {
    const current = drag.current;
    if (current === undefined) return;
    const delta = (event.clientX - current.startX) * direction;
    if (Math.abs(delta) > 2) current.moved = true;
    if (current.moved) onPreview(resolveDrag(current.start, delta, limits));
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>): void => {
    const current = drag.current;
    drag.current = undefined;
    setActive(false);
    if (event.currentTarget.hasPointerCapture(event.pointerId))
      event.currentTarget.releasePointerCapture(event.pointerId);
    onPreview(undefined);
    if (current === undefined || !current.moved) return;
    onChange(releaseDrag(current.start, (event.clientX - current.startX) * direction, limits));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const next = keyboardResize({ width, collapsed }, event.key, limits, direction);
    if (next === undefined) return;
    event.preventDefault();
    onChange(next);
  };

  return (
    <div
      className={`column-divider${active ? ' active' : ''}`}
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={limits.max}
      aria-valuenow={collapsed ? 0 : width}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onDoubleClick={() => onChange({ width, collapsed: !collapsed })}
      onKeyDown={onKeyDown}
      data-testid={direction === 1 ? 'left-divider' : 'right-divider'}
    />
  );
}
