import type { ChatRequest, ReasoningEffort } from '@youyou/agent';
import type { RetryOptions } from '../http/index.ts';
import type { ModelListOptions, ModelSettings, ResolvedModel } from '../models/index.ts';

/**
 * Configuration of an Anthropic Messages API provider. Every field has a default.
 *
 * @example
 * const options: AnthropicOptions = { models: [{ id: 'claude-sonnet-4-5', alias: 'sonnet' }], defaultMaxTokens: 16_000 };
 */
export interface AnthropicOptions extends ModelListOptions {
  /** The provider's ID, unique among one agent's providers; default `'anthropic'`. */
  id?: string;
  /** Default: the `ANTHROPIC_API_KEY` environment variable. */
  apiKey?: string;
  /** Default: `ANTHROPIC_BASE_URL`, else `https://api.anthropic.com` (the path before `/v1/messages`). */
  baseURL?: string;
  /** Extra headers, e.g. `{ 'anthropic-beta': '…' }`. */
  headers?: Readonly<Record<string, string>>;
  /** The `anthropic-version` header; default `2023-06-01`. */
  version?: string;
  /** What an unknown model is assumed to be; default 200k window, 32k output, vision and tools on. */
  modelDefaults?: ModelSettings;
  /** Facts about model names; default: the Claude families this package knows. */
  knownModel?: (serverId: string) => ModelSettings | undefined;
  /** Retries before the first streamed event; default 2 retries, 0.5 s doubling backoff. */
  retry?: RetryOptions;
  /**
   * `max_tokens` when the request sets none. The API requires one; default: the model's output
   * limit, at most 32,000.
   */
  defaultMaxTokens?: number;
  /**
   * How `reasoningEffort` becomes thinking: `'budget'` sends `thinking.budget_tokens` (default);
   * `'adaptive'` sends `thinking: { type: 'adaptive' }` with `output_config.effort`, for models
   * that take the effort parameter.
   */
  thinkingMode?: 'budget' | 'adaptive';
  /** Thinking budgets per effort for `'budget'` mode; default 1,024 / 4,096 / 10,000 / 24,000. */
  thinkingBudgets?: Partial<Record<ReasoningEffort, number>>;
  /** Mark the system prompt and the conversation's end for prompt caching; default true. */
  promptCaching?: boolean;
  /** The last word on a request body. */
  transformBody?: (
    body: Record<string, unknown>,
    context: { request: ChatRequest; model: ResolvedModel },
  ) => Record<string, unknown>;
}
