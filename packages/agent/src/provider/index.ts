export type {
  AssistantMessage,
  Message,
  SystemMessage,
  ToolCallRequest,
  ToolResultMessage,
  UserMessage,
} from './message.ts';
export type {
  ChatEvent,
  ChatOptions,
  ChatRequest,
  FinishReason,
  ModelCapabilities,
  ModelKind,
  ModelInfo,
  ModelProvider,
  ReasoningEffort,
  ToolDefinition,
  Usage,
} from './model-provider.ts';
export { ModelRouter } from './model-router.ts';
export type { RoutedModel } from './model-router.ts';
