export { ConversationProjection } from './conversation-projection.ts';
export { applyRunEvent, isSettled } from './project-run.ts';
export type * from './message-types.ts';
