import type { AgentError } from '../errors/index.ts';
import type { Message } from './message.ts';

/** What a model can do. A request that needs a missing capability fails with MODEL_NOT_SUPPORTED. */
export interface ModelCapabilities {
  toolUse: boolean;
  vision: boolean;
  streaming: boolean;
  /** Emits reasoning deltas / accepts `reasoningEffort`. */
  reasoning?: boolean;
  /** Accepts binary documents (e.g. PDF) as file blocks; UTF-8 text files work on every model. */
  documents?: boolean;
}

/** A model a provider serves (spec §3.2). Model IDs are unique across all providers. */
export interface ModelInfo {
  id: string;
  displayName: string;
  /** The context window in tokens; compaction triggers at `compactThreshold` × this. */
  contextWindow: number;
  /** The largest reply the model may produce, when the provider knows it. */
  maxOutputTokens?: number;
  capabilities: ModelCapabilities;
}

/** A tool as the model sees it: name, description and JSON Schema parameters. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Readonly<Record<string, unknown>>;
}

export type ReasoningEffort = 'minimal' | 'low' | 'medium' | 'high';

/**
 * One model call. `messages` is the session's live list: read it during the call, copy what must
 * outlive it.
 */
export interface ChatRequest {
  model: string;
  /** The system prompt; the provider places it where its API wants it. */
  systemPrompt: string;
  messages: readonly Message[];
  tools: readonly ToolDefinition[];
  temperature?: number;
  maxTokens?: number;
  reasoningEffort?: ReasoningEffort;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  reasoningTokens?: number;
  cachedInputTokens?: number;
}

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other';

/**
 * What a provider streams back (spec §3.2). A stream ends after `done`, `error` or
 * `context_length_exceeded`; a stream that simply ends is treated as done without usage.
 */
export type ChatEvent =
  | { type: 'text_delta'; text: string }
  | { type: 'reasoning_delta'; text: string }
  | { type: 'tool_call'; callId: string; toolName: string; arguments: string }
  | {
      type: 'done';
      usage?: Usage;
      finishReason?: FinishReason;
      providerMetadata?: Readonly<Record<string, unknown>>;
    }
  | { type: 'error'; error: AgentError }
  /** The request did not fit the model's window: the agent compacts and retries once. */
  | { type: 'context_length_exceeded'; message: string };

export interface ChatOptions {
  /** Aborted when the turn is cancelled or the stream stalls; the provider stops at once. */
  signal: AbortSignal;
}

/**
 * The contract every model backend implements (spec §3.2).
 *
 * @example
 * const provider: ModelProvider = {
 *   id: 'echo',
 *   listModels: () => [{ id: 'echo-1', displayName: 'Echo', contextWindow: 8000,
 *     capabilities: { toolUse: false, vision: false, streaming: true } }],
 *   async *chat(request) {
 *     yield { type: 'text_delta', text: 'hello' };
 *     yield { type: 'done' };
 *   },
 * };
 */
export interface ModelProvider {
  readonly id: string;
  listModels(): readonly ModelInfo[] | Promise<readonly ModelInfo[]>;
  chat(request: ChatRequest, options: ChatOptions): AsyncIterable<ChatEvent>;
}
