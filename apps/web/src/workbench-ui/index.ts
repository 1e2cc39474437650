export { useWorkbenchUi } from './workbench-ui-store.ts';
export type { WorkbenchUi } from './workbench-ui-store.ts';
