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
  /**
   * The system note placed after a reply cut short by a cancel, live and on resume (spec §3.7).
   * The default is the spec's wording; set it to localise what the model is told.
   */
  interruptedNote: string;
  /** The system note placed after a reply cut short by an error. */
  failedNote: string;
}

/** The spec's note after a cancelled reply (spec §3.7): "this message was interrupted by the user's cancel". */
export const INTERRUPTED_NOTE = '[此消息因用户取消而中断]';
/** The note after a reply an error cut short, worded like the spec's. */
export const FAILED_NOTE = '[此消息因错误而中断]';

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
  interruptedNote: INTERRUPTED_NOTE,
  failedNote: FAILED_NOTE,
});
