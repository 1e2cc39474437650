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
  /**
   * What the model is for, when its server says (Ollama's `/api/show` capabilities): an
   * `embedding` or `rerank` model is not a chat model. Unset means chat, or not reported.
   */
  kind?: ModelKind;
}

/** What a model is for. */
export type ModelKind = 'chat' | 'embedding' | 'rerank';

/** A tool as the model sees it: name, description and JSON Schema parameters. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Readonly<Record<string, unknown>>;
}

/** How hard a reasoning model thinks; providers map it to what their API takes. */
export type ReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';

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
  /** Input tokens served from the provider's prompt cache. */
  cachedInputTokens?: number;
  /** Input tokens written to the provider's prompt cache (billed apart by some providers). */
  cacheWriteTokens?: number;
}

/**
 * Why a model call ended, as the provider reported it: `length` — cut off at the token limit;
 * `content_filter` — blocked by the provider's filter; `refusal` — the model declined (a provider
 * that reports refusals as `stop` may leave it at that: the agent marks a reply with refusal text
 * as `refusal` itself).
 */
export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'refusal' | 'other';

/**
 * What a provider streams back (spec §3.2). A stream ends after `done`, `error` or
 * `context_length_exceeded`; a stream that simply ends is treated as done without usage.
 * Consecutive deltas may be merged; consumers must not rely on delta boundaries.
 */
export type ChatEvent =
  | { type: 'text_delta'; text: string }
  | { type: 'reasoning_delta'; text: string }
  /**
   * The model's refusal, streamed like text (OpenAI `delta.refusal`, Anthropic `stop_reason:
   * refusal` with its text). The agent shows it as text marked as a refusal.
   */
  | { type: 'refusal_delta'; text: string }
  | { type: 'tool_call'; callId: string; toolName: string; arguments: string }
  | {
      type: 'done';
      usage?: Usage;
      finishReason?: FinishReason;
      providerMetadata?: Readonly<Record<string, unknown>>;
    }
  | { type: 'error'; error: AgentError }
  /**
   * The request did not fit the model's window: the agent compacts and retries once. `limit` and
   * `requested` are token counts, when the server reports them.
   */
  | { type: 'context_length_exceeded'; message: string; limit?: number; requested?: number }
  /**
   * Not an end: the provider failed an attempt before anything was streamed and tries again after
   * `delayMs`. The agent shows it as a non-fatal error and does not count the wait as a stall.
   * `maxAttempts`, when the provider knows it, is how many retries it makes at most ("retrying 2/3").
   */
  | { type: 'retry'; attempt: number; delayMs: number; error: AgentError; maxAttempts?: number };

export interface ChatOptions {
  /**
   * Aborted when the turn is cancelled or the stream stalls. The provider stops at once: it may
   * return, throw, or yield a final `error` — after an abort the agent ignores what comes.
   */
  signal: AbortSignal;
}

/**
 * The contract every model backend implements (spec §3.2). Model IDs must be unique across every
 * provider of an agent, so a provider that serves another's models should let its user prefix them.
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
