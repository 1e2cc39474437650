import type { ChatRequest } from '@youyou/agent';
import type { RetryOptions } from '../http/index.ts';
import type { ModelListOptions, ModelSettings, ResolvedModel } from '../models/index.ts';

/** When an assistant message's reasoning is sent back to the server as `reasoning_content`. */
export type ReasoningHistory = 'never' | 'tool-calls' | 'always';

/**
 * Configuration of an OpenAI-compatible Chat Completions provider.
 *
 * @example
 * const options: OpenAICompatibleOptions = {
 *   id: 'lmstudio',
 *   baseURL: 'http://127.0.0.1:1234/v1',
 *   modelDefaults: { contextWindow: 16_384 },
 * };
 */
export interface OpenAICompatibleOptions extends ModelListOptions {
  /** The provider's ID, unique among one agent's providers. */
  id: string;
  /** The API root that `/chat/completions` and `/models` hang off, e.g. `https://api.openai.com/v1`. */
  baseURL: string;
  /** Sent as `Authorization: Bearer …` when set. */
  apiKey?: string;
  /** Extra headers on every request (e.g. OpenRouter's `HTTP-Referer`). */
  headers?: Readonly<Record<string, string>>;
  /** What a model is assumed to be when neither the server nor `knownModel` says (default: 32k window, tools on). */
  modelDefaults?: ModelSettings;
  /**
   * After `GET /models`, ask the server's own endpoints for context windows and capabilities the
   * listing leaves out: Ollama's `/api/tags` and `/api/show`, llama.cpp's `/props` (on plain-HTTP
   * servers and listings that name them). Default false; the `ollama` preset turns it on.
   */
  serverDetails?: boolean;
  /** What this provider knows about well-known model names; presets supply one. */
  knownModel?: (serverId: string) => ModelSettings | undefined;
  /** Retries before the first streamed event; default 2 retries, 0.5 s doubling backoff. */
  retry?: RetryOptions;
  /** Request usage with `stream_options.include_usage`; default true. Turn off for servers that reject it. */
  streamUsage?: boolean;
  /** The field for `maxTokens`; OpenAI's reasoning models require `max_completion_tokens`. Default `max_tokens`. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /**
   * When to send reasoning back as `reasoning_content`: DeepSeek and Kimi thinking models require
   * it on assistant messages that called tools (`'tool-calls'`); OpenAI rejects the field. Default `'never'`.
   */
  reasoningHistory?: ReasoningHistory;
  /** Top-level fields added to every request body, e.g. `{ thinking: { type: 'enabled' } }`. */
  extraBody?: Readonly<Record<string, unknown>>;
  /** The last word on a request body, for servers with their own dialect. */
  transformBody?: (
    body: Record<string, unknown>,
    context: { request: ChatRequest; model: ResolvedModel },
  ) => Record<string, unknown>;
  /** Said after "Check your API key" when the server refuses it, e.g. `'(set OPENAI_API_KEY)'`. */
  apiKeyHint?: string;
}
