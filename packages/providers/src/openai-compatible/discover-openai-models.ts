import type { ModelCapabilities } from '@youyou/agent';
import type { ModelConfig } from '../models/index.ts';
import { positiveNumber, record } from '../http/index.ts';

/**
 * Reads a `GET /models` list (`{ data: [{ id, … }] }`), keeping the model facts servers add
 * beyond OpenAI's bare IDs: OpenRouter's `name`, `context_length`, `top_provider`,
 * `architecture.input_modalities` and `supported_parameters`; vLLM's `max_model_len`;
 * Groq's `context_window`; Moonshot's `context_length`.
 *
 * @example
 * readOpenAIModelList({ data: [{ id: 'qwen3:8b', object: 'model' }] }); // [{ id: 'qwen3:8b' }]
 */
export function readOpenAIModelList(document: unknown): ModelConfig[] {
  const data = record(document)['data'];
  if (!Array.isArray(data)) return [];
  const models: ModelConfig[] = [];
  for (const item of data) {
    const entry = record(item);
    const id = entry['id'];
    if (typeof id !== 'string' || id.length === 0) continue;
    const model: ModelConfig = { id };
    if (typeof entry['name'] === 'string' && entry['name'].length > 0) model.displayName = entry['name'];
    const contextWindow =
      positiveNumber(entry['context_length']) ??
      positiveNumber(entry['max_model_len']) ??
      positiveNumber(entry['context_window']);
    if (contextWindow !== undefined) model.contextWindow = contextWindow;
    const maxOutputTokens =
      positiveNumber(record(entry['top_provider'])['max_completion_tokens']) ??
      positiveNumber(entry['max_completion_tokens']);
    if (maxOutputTokens !== undefined) model.maxOutputTokens = maxOutputTokens;
    const capabilities: Partial<ModelCapabilities> = {};
    const modalities = record(entry['architecture'])['input_modalities'];
    if (Array.isArray(modalities)) capabilities.vision = modalities.includes('image');
    if (Array.isArray(modalities) && modalities.includes('file')) capabilities.documents = true;
    const parameters = entry['supported_parameters'];
    if (Array.isArray(parameters)) {
      capabilities.toolUse = parameters.includes('tools');
      capabilities.reasoning = parameters.includes('reasoning') || parameters.includes('reasoning_effort');
    }
    if (Object.keys(capabilities).length > 0) model.capabilities = capabilities;
    models.push(model);
  }
  return models;
}
