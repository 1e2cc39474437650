export { createTempWorkspace } from './temp-home.ts';
export type { TempWorkspace } from './temp-home.ts';
