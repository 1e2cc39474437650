export * from './errors/index.ts';
export * from './content/index.ts';
export * from './provider/index.ts';
export type { ToolContext, ToolHandler, ToolInput, ToolOutput } from './tools/tool-handler.ts';
export type { SkillDefinition } from './skills/skill-definition.ts';
export { Continue, HOOK_NAMES, abort, continueWith } from './hooks/hook-types.ts';
export type {
  HookData,
  HookHandler,
  HookMutableFields,
  HookName,
  HookPayload,
  HookPayloads,
  HookResult,
} from './hooks/hook-types.ts';
export type { HookTap, Plugin, PluginConfig } from './plugins/plugin.ts';
export type * from './session/session-record.ts';
export type { SessionPage, SessionStorage, SessionSummary } from './session/session-storage.ts';
export type { Memory, MemoryInput, MemoryStorage } from './memory/memory-storage.ts';
export type * from './events/agent-event.ts';
export { DEFAULT_AGENT_CONFIG } from './config/agent-config.ts';
export type { AgentConfig } from './config/agent-config.ts';
export type * from './builder/component-source.ts';
