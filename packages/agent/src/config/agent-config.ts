import type { ReasoningEffort } from '../provider/index.ts';

/**
 * Agent settings. The file channel reads the same fields from `config.yaml` in snake_case
 * (spec §5.7); defaults are in `DEFAULT_AGENT_CONFIG`.
 */
export interface AgentConfig {
  /** Base instructions: the first system-prompt layer. */
  baseInstructions: string;
  /** Model for sessions that name none; else the first model of the first provider. */
  defaultModel?: string;
  toolTimeoutMs: number;
  /** Compact when the estimate passes this share of the model's window. */
  compactThreshold: number;
  compactModel?: string;
  compactPrompt?: string;
  maxToolCallsPerTurn: number;
  memoryModel?: string;
  memoryCheckpointInterval: number;
  memoryMaxItems: number;
  /** Highest-priority plugin configurations by plugin id; each replaces lower layers whole. */
  pluginConfigs: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** A stalled provider stream ends with a retryable PROVIDER_ERROR after these waits. */
  providerFirstChunkTimeoutMs: number;
  providerChunkTimeoutMs: number;
  temperature?: number;
  maxTokens?: number;
  reasoningEffort?: ReasoningEffort;
}

export const DEFAULT_AGENT_CONFIG: Readonly<AgentConfig> = Object.freeze({
  baseInstructions: '',
  toolTimeoutMs: 120_000,
  compactThreshold: 0.8,
  maxToolCallsPerTurn: 50,
  memoryCheckpointInterval: 10,
  memoryMaxItems: 20,
  pluginConfigs: {},
  providerFirstChunkTimeoutMs: 120_000,
  providerChunkTimeoutMs: 60_000,
});
