// `@youyou/agent`: the framework a library user builds with. The ~/.youyou file channel is
// `@youyou/agent/files`, the server-sent events reader (model streams, the workbench client's event
// streams) `@youyou/agent/sse`; nothing else is imported from outside the package.

// Building and running an agent (spec §6).
export { AgentBuilder, defaultHome } from './builder/index.ts';
export type { AgentBuilderOptions } from './builder/index.ts';
export { Agent, Session, Turn, rebuildContext, stopKindOf, stopReason } from './session/index.ts';
export type {
  NewSessionOptions,
  RebuildNotes,
  SessionConfigOverrides,
  RebuiltSession,
  SendOptions,
  StopKind,
  TurnResult,
  TurnState,
} from './session/index.ts';
export type { ComponentInfo, ComponentKind, ComponentLayer, LoadDiagnostic } from './components/index.ts';
export { DEFAULT_AGENT_CONFIG, FAILED_NOTE, INTERRUPTED_NOTE, validateConfig } from './config/index.ts';
export type { AgentConfig } from './config/index.ts';

// What a turn streams (spec §7).
export type {
  AgentEvent,
  AgentEventBody,
  AgentEventType,
  EventEnvelope,
  TurnSummary,
} from './events/index.ts';

// Errors (spec §10).
export { AGENT_ERROR_CODES, AgentError, isAgentError } from './errors/index.ts';
export type { AgentErrorCode, AgentErrorJSON, AgentErrorOptions, AgentErrorSource } from './errors/index.ts';

// Input (spec §8).
export { detectImageFormat, MAX_FILE_BYTES, MAX_IMAGE_BYTES } from './content/index.ts';
export type {
  ContentBlock,
  FileBlock,
  ImageBlock,
  ImageMediaType,
  TextBlock,
  UserInput,
  UserInputBlock,
} from './content/index.ts';

// The provider contract (spec §3.2).
export type {
  AssistantMessage,
  ChatEvent,
  ChatOptions,
  ChatRequest,
  FinishReason,
  Message,
  ModelCapabilities,
  ModelKind,
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

// Tools (spec §3.3).
export { defineTool, MAX_TOOL_OUTPUT_BYTES, truncateOutput } from './tools/index.ts';
export type {
  ArgumentsSchema,
  JsonSchemaObject,
  JsonSchemaToolDefinition,
  SchemaToolDefinition,
  ToolCallContext,
  ToolContext,
  ToolHandler,
  ToolInput,
  ToolOutput,
} from './tools/index.ts';

// Skills (spec §3.4).
export { parseSkillInvocation } from './skills/index.ts';
export type { SkillDefinition, SkillInvocation } from './skills/index.ts';

// Plugins and hooks (spec §3.5, §3.6).
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

// Registration channels besides code (spec §3.1): the file channel implements this.
export type {
  ComponentSource,
  LayerComponents,
  LayeredPlugin,
  LoadedComponents,
} from './components/index.ts';

// Prompts: the system prompt's layers and the prompts the agent sends on its own behalf.
export {
  DEFAULT_COMPACT_PROMPT,
  estimateMessageTokens,
  estimateTextTokens,
  IMAGE_TOKEN_ESTIMATE,
  SUMMARY_HEADER,
} from './context/index.ts';
export { PROMPT_LAYERS } from './prompt/index.ts';
export type { PromptLayer, PromptSection, SystemPrompt } from './prompt/index.ts';

// Storages (spec §3.7, §3.8): the contracts, what an implementer needs, and reference storages.
export type {
  AssistantMessageRecord,
  MetadataRecord,
  SessionPage,
  SessionRecord,
  SessionRecordInit,
  SessionStorage,
  SessionSummary,
  SystemMessageRecord,
  ToolCallRecord,
  ToolResultRecord,
  UserMessageRecord,
} from './session/index.ts';
export { GLOBAL_NAMESPACE, MEMORY_EXTRACTION_PROMPT, parseMemories } from './memory/index.ts';
export type { Memory, MemoryInput, MemoryStorage } from './memory/index.ts';
export {
  FileMemoryStorage,
  InMemoryMemoryStorage,
  InMemorySessionStorage,
  JsonlSessionStorage,
  rankMemories,
  summarizeRecords,
} from './storage/index.ts';
export type {
  FileMemoryStorageOptions,
  JsonlSessionStorageOptions,
  SummaryAccumulator,
} from './storage/index.ts';

// Logging.
export { silentLogger, stderrLogger } from './logging/index.ts';
export type { Logger } from './logging/index.ts';
