export {
  chatCompletion,
  DEFAULT_AGENT_MODEL,
  listAgentModels,
  parseChatCompletionRequest,
} from './openai-endpoint.ts';
