export { ConfirmDialog, Dialog } from './dialog.tsx';
export type { ConfirmDialogProps, DialogProps } from './dialog.tsx';
export { Menu } from './menu.tsx';
export type { MenuItem } from './menu.tsx';
