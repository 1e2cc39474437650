// The public surface of @youyou/agent; nothing else is imported from outside the package.
export { AGENT_ERROR_CODES, AgentError, isAgentError } from './errors/index.ts';
export type { AgentErrorCode, AgentErrorJSON, AgentErrorOptions, AgentErrorSource } from './errors/index.ts';

export { detectImageFormat, MAX_FILE_BYTES, MAX_IMAGE_BYTES, resolveAllowedPath } from './content/index.ts';
export type {
  ContentBlock,
  FileBlock,
  ImageBlock,
  ImageMediaType,
  TextBlock,
  UserInput,
  UserInputBlock,
} from './content/index.ts';

export type {
  AssistantMessage,
  ChatEvent,
  ChatOptions,
  ChatRequest,
  FinishReason,
  Message,
  ModelCapabilities,
  ModelInfo,
  ModelProvider,
  ReasoningEffort,
  SystemMessage,
  ToolCallRequest,
  ToolDefinition,
  ToolResultMessage,
  Usage,
  UserMessage,
} from './provider/index.ts';

export { MAX_TOOL_OUTPUT_BYTES, truncateOutput } from './tools/index.ts';
export type { ToolContext, ToolHandler, ToolInput, ToolOutput } from './tools/index.ts';

export { parseSkillInvocation } from './skills/index.ts';
export type { SkillDefinition, SkillInvocation } from './skills/index.ts';

export { abort, Continue, continueWith, HOOK_NAMES } from './hooks/index.ts';
export type {
  HookData,
  HookHandler,
  HookMutableFields,
  HookName,
  HookPayload,
  HookPayloads,
  HookResult,
} from './hooks/index.ts';
export type { HookTap, Plugin, PluginConfig } from './plugins/index.ts';

export { DEFAULT_COMPACT_PROMPT } from './context/index.ts';
export { PROMPT_LAYERS } from './prompt/index.ts';
export type { PromptLayer, PromptSection, SystemPrompt } from './prompt/index.ts';

export { GLOBAL_NAMESPACE } from './memory/index.ts';
export type { Memory, MemoryInput, MemoryStorage } from './memory/index.ts';

export {
  InMemoryMemoryStorage,
  InMemorySessionStorage,
  rankMemories,
  summarizeRecords,
} from './storage/index.ts';
export type { SummaryAccumulator } from './storage/index.ts';

export { Agent, rebuildContext, Session, stopKindOf, stopReason, Turn } from './session/index.ts';
export type * from './session/index.ts';

export type * from './events/index.ts';

export { DEFAULT_AGENT_CONFIG, FAILED_NOTE, INTERRUPTED_NOTE, validateConfig } from './config/index.ts';
export type { AgentConfig } from './config/index.ts';

export { AgentBuilder, defaultHome } from './builder/index.ts';
export type * from './builder/index.ts';

export { silentLogger, stderrLogger } from './logging/index.ts';
export type { Logger } from './logging/index.ts';

// The ~/.youyou file channel and the reference file storages (issue 3).
export * from './files/index.ts';
export { JsonlSessionStorage } from './storage/jsonl-session-storage.ts';
export type { JsonlSessionStorageOptions } from './storage/jsonl-session-storage.ts';
export { FileMemoryStorage } from './storage/file-memory-storage.ts';
export type { FileMemoryStorageOptions } from './storage/file-memory-storage.ts';
