import type { AgentErrorJSON } from '../errors/index.ts';
import type { Usage } from '../provider/index.ts';

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
  | { type: 'TextDelta'; text: string }
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
  | ({ type: 'TurnComplete'; status: 'completed' | 'failed'; error?: AgentErrorJSON } & TurnSummary)
  | ({ type: 'TurnCancelled' } & TurnSummary)
  | {
      type: 'Error';
      error: AgentErrorJSON;
      /** True when the error ends the turn; false for warnings the turn survives. */
      fatal: boolean;
    };

export type AgentEvent = EventEnvelope & AgentEventBody;

export type AgentEventType = AgentEvent['type'];
