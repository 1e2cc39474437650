export { createWorkbenchClient } from './workbench-client.ts';
export type {
  ComponentDraft,
  ConversationListOptions,
  SendOptions,
  WorkbenchClient,
} from './workbench-client.ts';
export type { MemoryClientMethods, MemoryListOptions } from './memory-client.ts';
export type { KnowledgeClientMethods } from './knowledge-client.ts';
export type { CustomiseClientMethods, RunPlan } from './customise-client.ts';
export type { ExtensionClientMethods } from './extension-client.ts';
export type { DocumentClientMethods } from './document-client.ts';
export type { ToolClientMethods } from './tool-client.ts';
