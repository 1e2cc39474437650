import type { AgentErrorJSON } from '../errors/index.ts';
import type { FinishReason, Usage } from '../provider/index.ts';

/** Fields every event carries (spec §7). `sequence` rises by one per event within a session. */
export interface EventEnvelope {
  sessionId: string;
  turnId: string;
  timestamp: number;
  sequence: number;
}

export interface TurnSummary {
  /** The assistant's text across all model steps of the turn. */
  output: string;
  toolCalls: number;
  modelCalls: number;
  usage: Usage;
}

/** The events of a turn, discriminated on `type` with the spec's names (spec §7). */
export type AgentEventBody =
  | {
      type: 'TextDelta';
      text: string;
      /** Set when the text is the model's refusal (a provider's `refusal_delta`). */
      refusal?: true;
    }
  | { type: 'ReasoningDelta'; text: string }
  | { type: 'ToolCallStart'; callId: string; toolName: string; arguments: string }
  | {
      type: 'ToolCallEnd';
      callId: string;
      toolName: string;
      /** The arguments the tool ran with, after any BeforeToolUse rewrite. */
      arguments: Readonly<Record<string, unknown>> | undefined;
      output: string;
      durationMs: number;
      success: boolean;
      metadata?: Readonly<Record<string, unknown>>;
    }
  | {
      type: 'ContextCompacted';
      strategy: 'summary' | 'truncation';
      tokensBefore: number;
      tokensAfter: number;
      messagesRemoved: number;
    }
  | ({
      type: 'TurnComplete';
      status: 'completed' | 'failed';
      error?: AgentErrorJSON;
      /**
       * Why the turn's last model call ended, when the provider said: a UI shows `length` as "cut
       * off at the token limit", `content_filter` as "blocked by the provider's filter" and
       * `refusal` as a refusal. Absent when the turn failed before a reply ended.
       */
      finishReason?: FinishReason;
    } & TurnSummary)
  | ({ type: 'TurnCancelled' } & TurnSummary)
  | {
      type: 'Error';
      error: AgentErrorJSON;
      /** True when the error ends the turn; false for warnings the turn survives. */
      fatal: boolean;
    };

export type AgentEvent = EventEnvelope & AgentEventBody;

export type AgentEventType = AgentEvent['type'];
