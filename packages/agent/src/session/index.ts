export { Agent } from './agent.ts';
export type { NewSessionOptions, SessionConfigOverrides } from './agent.ts';
export { Session } from './session.ts';
export type { SendOptions } from './session.ts';
export { Turn } from './turn.ts';
export type { TurnResult, TurnState } from './turn.ts';
export { FAILED_NOTE, INTERRUPTED_NOTE, rebuildContext } from './rebuild-context.ts';
export type * from './session-record.ts';
export type { SessionPage, SessionStorage, SessionSummary } from './session-storage.ts';
