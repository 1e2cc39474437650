export { readOpenAIModelList } from './discover-openai-models.ts';
export { openaiCompatible } from './openai-compatible-provider.ts';
export type { OpenAICompatibleOptions, ReasoningHistory } from './openai-compatible-options.ts';
export { OpenAIStreamDecoder, readOpenAIUsage } from './openai-stream-decoder.ts';
export { buildChatCompletionsBody, toOpenAIMessages } from './request-body.ts';
