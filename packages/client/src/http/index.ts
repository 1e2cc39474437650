export { createWorkbenchClient } from './workbench-client.ts';
export type {
  ComponentDraft,
  ConversationListOptions,
  SendOptions,
  WorkbenchClient,
} from './workbench-client.ts';
export type { MemoryClientMethods, MemoryListOptions } from './memory-client.ts';
export type { KnowledgeClientMethods } from './knowledge-client.ts';
