export { firstUserText, sessionScripts } from './agent-scripts.ts';
export type { SessionScript, SessionScripts } from './agent-scripts.ts';
