import type { ModelConfig } from '../models/index.ts';
import { positiveNumber, record } from '../http/index.ts';

/**
 * Reads one page of Anthropic's `GET /v1/models` (`{ data: [{ id, display_name }], has_more,
 * last_id }`), with the window and output limits when the API reports them.
 *
 * @example
 * readAnthropicModelPage({ data: [{ type: 'model', id: 'claude-sonnet-4-5', display_name: 'Claude Sonnet 4.5' }], has_more: false });
 * // { models: [{ id: 'claude-sonnet-4-5', displayName: 'Claude Sonnet 4.5' }], nextAfterId: undefined }
 */
export function readAnthropicModelPage(document: unknown): { models: ModelConfig[]; nextAfterId?: string } {
  const page = record(document);
  const data = page['data'];
  const models: ModelConfig[] = [];
  if (Array.isArray(data)) {
    for (const item of data) {
      const entry = record(item);
      const id = entry['id'];
      if (typeof id !== 'string' || id.length === 0) continue;
      const model: ModelConfig = { id };
      if (typeof entry['display_name'] === 'string') model.displayName = entry['display_name'];
      const contextWindow =
        positiveNumber(entry['max_input_tokens']) ?? positiveNumber(entry['context_window']);
      if (contextWindow !== undefined) model.contextWindow = contextWindow;
      const maxOutputTokens =
        positiveNumber(entry['max_tokens']) ?? positiveNumber(entry['max_output_tokens']);
      if (maxOutputTokens !== undefined) model.maxOutputTokens = maxOutputTokens;
      models.push(model);
    }
  }
  const lastId = page['last_id'];
  return page['has_more'] === true && typeof lastId === 'string'
    ? { models, nextAfterId: lastId }
    : { models };
}
