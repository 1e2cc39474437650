export { applyRunEvent, createRunProjection, isSettled } from './run-projection.ts';
export type { RunProjection } from './run-projection.ts';
export { ConversationProjection, runIdOf } from './conversation-projection.ts';
