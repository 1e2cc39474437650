export { ConfirmDialog, Dialog } from './dialog.tsx';
export type { ConfirmDialogProps, DialogProps } from './dialog.tsx';
export { Menu } from './menu.tsx';
export type { MenuItem } from './menu.tsx';
export { ErrorBoundary } from './error-boundary.tsx';
export type { ErrorBoundaryProps } from './error-boundary.tsx';
