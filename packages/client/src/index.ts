/**
 * `@youyou/client`: talk to a YouYou Workbench server from a browser, Node or Deno. The typed
 * HTTP client, the conversation event stream with `Last-Event-ID` resume, and — re-exported from
 * `@youyou/contracts` — the projection that turns events into messages exactly as the server's
 * Query does.
 */
export { ApiError, isApiError } from './connection/index.ts';
export type { ConnectionOptions } from './connection/index.ts';
export { createWorkbenchClient } from './http/index.ts';
export type {
  ComponentDraft,
  ConversationListOptions,
  CustomiseClientMethods,
  DocumentClientMethods,
  ExtensionClientMethods,
  MemoryClientMethods,
  KnowledgeClientMethods,
  MemoryListOptions,
  RunPlan,
  SendOptions,
  ToolClientMethods,
  WorkbenchClient,
} from './http/index.ts';
export { openEventStream, readConversationEvents } from './events/index.ts';
export type {
  ConversationEventsOptions,
  EventStream,
  EventStreamOptions,
  StreamState,
} from './events/index.ts';
// The one server-sent events reader, the same the providers read model streams with.
export { readServerSentEvents } from '@youyou/agent/sse';
export type { ServerSentEvent, ServerSentEventsOptions } from '@youyou/agent/sse';
export {
  ConversationProjection,
  applyRunEvent,
  createRunProjection,
  isKnownEventType,
  isSettled,
  parseEvent,
} from '@youyou/contracts';
export type {
  ConversationMessage,
  MessagePart,
  RunProjection,
  WorkbenchEvent,
  WorkbenchEventType,
} from '@youyou/contracts';
