export {
  LEFT_COLUMN_LIMITS,
  RIGHT_COLUMN_LIMITS,
  keyboardResize,
  releaseDrag,
  resolveDrag,
} from './column-resize.ts';
export type { ColumnLimits, DragResult } from './column-resize.ts';
export {
  DEFAULT_LAYOUT,
  WORKBENCH_TABS,
  layoutOf,
  moveInOrder,
  sanitizeLayout,
  useLayout,
} from './layout-store.ts';
export type { Layout, WorkbenchTab } from './layout-store.ts';
export { ColumnDivider } from './column-divider.tsx';
export { AppShell } from './app-shell.tsx';
