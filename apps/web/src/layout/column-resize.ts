/** The sizes of a resizable column (spec §4.4: min 220 / max 420 px, ~40 px overshoot collapses). */
export interface ColumnLimits {
  min: number;
  max: number;
  /** Dragging this far past `min` and releasing collapses the column. */
  overshoot: number;
  /** The width of the collapsed icon rail. */
  rail: number;
}

export const LEFT_COLUMN_LIMITS: ColumnLimits = { min: 220, max: 420, overshoot: 40, rail: 52 };
export const RIGHT_COLUMN_LIMITS: ColumnLimits = { min: 260, max: 640, overshoot: 40, rail: 0 };

/** Where a drag stands: the width to show and what releasing now would do. */
export interface DragResult {
  width: number;
  collapsed: boolean;
  /** True while the pointer is past the collapse threshold (the UI previews the collapse). */
  willCollapse: boolean;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/**
 * The column's state during a drag. `delta` is how far the pointer moved toward growing the
 * column (for a left column: right). From an expanded column, going past `min - overshoot`
 * previews a collapse; from a collapsed one, pulling the rail out to `min` expands it.
 *
 * @example
 * resolveDrag({ width: 260, collapsed: false }, -90, LEFT_COLUMN_LIMITS); // { width: 220, collapsed: false, willCollapse: true }
 */
export function resolveDrag(
  start: { width: number; collapsed: boolean },
  delta: number,
  limits: ColumnLimits,
): DragResult {
  if (start.collapsed) {
    const pulled = limits.rail + delta;
    if (pulled >= limits.min)
      return { width: clamp(pulled, limits.min, limits.max), collapsed: false, willCollapse: false };
    return { width: start.width, collapsed: true, willCollapse: false };
  }
  const raw = start.width + delta;
  return {
    width: clamp(raw, limits.min, limits.max),
    collapsed: false,
    willCollapse: raw < limits.min - limits.overshoot,
  };
}

/**
 * The column after the pointer is released: a drag that ended past the threshold collapses,
 * keeping the width to restore.
 *
 * @example
 * releaseDrag({ width: 300, collapsed: false }, -130, LEFT_COLUMN_LIMITS); // { width: 300, collapsed: true }
 */
export function releaseDrag(
  start: { width: number; collapsed: boolean },
  delta: number,
  limits: ColumnLimits,
): { width: number; collapsed: boolean } {
  const result = resolveDrag(start, delta, limits);
  if (result.willCollapse) return { width: start.width, collapsed: true };
  return { width: result.width, collapsed: result.collapsed };
}

/** A keyboard step on the divider (arrows resize by 16 px; Enter toggles). */
export function keyboardResize(
  state: { width: number; collapsed: boolean },
  key: string,
  limits: ColumnLimits,
  direction: 1 | -1,
): { width: number; collapsed: boolean } | undefined {
  const step = 16;
  if (key === 'Enter' || key === ' ') return { width: state.width, collapsed: !state.collapsed };
  if (key === 'Home') return { width: limits.min, collapsed: false };
  if (key === 'End') return { width: limits.max, collapsed: false };
  const grow = key === 'ArrowRight' ? direction : key === 'ArrowLeft' ? -direction : 0;
  if (grow === 0) return undefined;
  if (state.collapsed) return grow > 0 ? { width: state.width, collapsed: false } : state;
  const next = state.width + grow * step;
  if (next < limits.min) return { width: state.width, collapsed: true };
  return { width: clamp(next, limits.min, limits.max), collapsed: false };
}
