import type { ModelCapabilities, ModelKind } from '@youyou/agent';

/**
 * A model as the user configures it. For example
 * `{ id: 'Qwen/Qwen3-8B', alias: 'qwen3', contextWindow: 32_768, capabilities: { reasoning: true } }`. Only `id` is required; the rest falls back to what the
 * server reports, then to the provider's knowledge of well-known models, then to defaults.
 */
export interface ModelConfig {
  /** The model's name on the server, as sent in requests (e.g. `gpt-4.1-mini`, `qwen3:8b`). */
  id: string;
  /**
   * The ID the agent knows this model by; default `modelIdPrefix + id`. Model IDs must be unique
   * across every provider of one agent, so two providers serving `llama3` need different ones.
   */
  alias?: string;
  displayName?: string;
  /** The context window in tokens. */
  contextWindow?: number;
  /** The largest reply the model may produce. */
  maxOutputTokens?: number;
  capabilities?: Partial<ModelCapabilities>;
  /** What the model is for, when the server says (an embedding model is not offered for chat). */
  kind?: ModelKind;
}

/** Per-model settings without the server ID, for overrides and defaults. */
export type ModelSettings = Omit<ModelConfig, 'id'>;

/** How a provider builds its model list: configured, discovered from `GET /models`, or both. */
export interface ModelListOptions {
  /** Models to declare. When set, discovery is off unless `discoverModels` is true. */
  models?: readonly ModelConfig[];
  /** Ask the server's `GET /models`; default true when `models` is not set. */
  discoverModels?: boolean;
  /** Prepended to every server ID that has no explicit `alias`, e.g. `'ollama/'`. */
  modelIdPrefix?: string;
  /** Settings per server ID, applied on top of discovered and configured models. */
  modelOverrides?: Readonly<Record<string, ModelSettings>>;
  /** Keeps only the discovered models this returns true for. */
  includeModel?: (serverId: string) => boolean;
}

/** Everything the agent needs to know about one declared model, plus its server ID. */
export interface ResolvedModel {
  serverId: string;
  id: string;
  displayName: string;
  contextWindow: number;
  maxOutputTokens?: number;
  capabilities: ModelCapabilities;
  kind?: ModelKind;
}
