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
  VIEWPORT_BREAKPOINTS,
  WORKBENCH_TABS,
  isLeftOpen,
  isPanelTab,
  isWorkbenchTab,
  isRightOpen,
  layoutOf,
  moveInOrder,
  sanitizeLayout,
  useLayout,
  viewportOf,
} from './layout-store.ts';
export type { BuiltinTab, Layout, PanelTabId, Viewport, WorkbenchTab } from './layout-store.ts';
export { ColumnDivider } from './column-divider.tsx';
export { AppShell } from './app-shell.tsx';
