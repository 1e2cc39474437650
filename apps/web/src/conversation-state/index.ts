export { ConversationStore, runsOfQuery } from './conversation-store.ts';
export type { ConversationSnapshot } from './conversation-store.ts';
export { CONVERSATIONS_KEY, LiveConversations, conversationKey } from './live-conversations.ts';
export type { LiveConversationsOptions } from './live-conversations.ts';
export { applyToRun, createdRun } from './run-view.ts';
export { frameBatched } from './frame-batched.ts';
export type { RunView } from './run-view.ts';
export { collapseRetryNotices, isRetryNotice, processSummary, splitProcessParts } from './process-summary.ts';
export type { ProcessSummary } from './process-summary.ts';
