export { anthropic } from './anthropic/index.ts';
export type { AnthropicOptions, AnthropicReplyMetadata, ThinkingBlock } from './anthropic/index.ts';
export { AnthropicStreamDecoder, buildMessagesBody, toAnthropicMessages } from './anthropic/index.ts';
export { openaiCompatible } from './openai-compatible/index.ts';
export type { OpenAICompatibleOptions, ReasoningHistory } from './openai-compatible/index.ts';
export {
  OpenAIStreamDecoder,
  buildChatCompletionsBody,
  toOpenAIMessages,
} from './openai-compatible/index.ts';
export { deepseek, moonshot, ollama, openai, openrouter } from './presets/index.ts';
export { isOpenAIChatModel, knownModel } from './presets/index.ts';
export type { PresetOptions } from './presets/index.ts';
export type { ModelConfig, ModelListOptions, ModelSettings } from './models/index.ts';
export { isContextLengthError, parseRetryAfter } from './http/index.ts';
export type { RetryOptions, StreamDecoder } from './http/index.ts';
export { StringSlotTemplate, findStringSlot } from './json-template/index.ts';
export { coalesceDeltas } from './http/index.ts';
export { decodeAnthropicStream, decodeOpenAIStream } from './recorded-streams/index.ts';
