export { anthropic } from './anthropic-provider.ts';
export type { AnthropicOptions } from './anthropic-options.ts';
export { AnthropicStreamDecoder } from './anthropic-stream-decoder.ts';
export { readAnthropicModelPage } from './discover-anthropic-models.ts';
export { knownAnthropicModel } from './known-anthropic-models.ts';
export { buildMessagesBody, toAnthropicMessages } from './request-body.ts';
export { readReplayableThinking } from './thinking-metadata.ts';
export type { AnthropicReplyMetadata, ThinkingBlock } from './thinking-metadata.ts';
