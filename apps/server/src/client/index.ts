// What the web app (and scripts) import: the typed client, the event stream reader, and the
// projection that turns events into messages exactly as the server's Query does.
export { createWorkbenchClient } from './workbench-client.ts';
export type { WorkbenchClient, WorkbenchClientOptions } from './workbench-client.ts';
export { readConversationEvents } from './event-stream.ts';
export type { EventStreamOptions } from './event-stream.ts';
export { applyRunEvent, ConversationProjection, isSettled } from '@youyou/contracts';
export type * from '@youyou/contracts';
export type { ConversationView } from '../conversations/conversation-query.ts';
