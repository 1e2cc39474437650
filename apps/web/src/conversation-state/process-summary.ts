import type { MessagePart } from '@youyou/contracts';
import type { RunView } from './run-view.ts';

const PROCESS_TYPES: ReadonlySet<string> = new Set(['thinking', 'tool_call', 'tool_result']);

/**
 * Splits an answer's parts at the last process part (reasoning or a tool call/result): what comes
 * before, intermediate text included, is the process that folds; what comes after is the answer.
 * Errors are never folded away: they stay visible in the answer.
 *
 * @example
 * splitProcessParts([thinking, toolCall, toolResult, text]); // { process: [thinking, toolCall, toolResult], answer: [text] }
 */
export function splitProcessParts(parts: readonly MessagePart[]): {
  process: MessagePart[];
  answer: MessagePart[];
} {
  let lastProcess = -1;
  parts.forEach((part, index) => {
    if (PROCESS_TYPES.has(part.type)) lastProcess = index;
  });
  const process: MessagePart[] = [];
  const answer: MessagePart[] = [];
  parts.forEach((part, index) => {
    // Errors and the artifacts a turn wrote stay in view when its process folds.
    if (index <= lastProcess && part.type !== 'error' && part.type !== 'artifact') process.push(part);
    else answer.push(part);
  });
  return { process, answer };
}

/** The numbers of the fold line: "Thought for 12 s · 3 tools". */
export interface ProcessSummary {
  /** Seconds, rounded; undefined when unknown. */
  seconds: number | undefined;
  thought: boolean;
  tools: number;
  failedTools: number;
}

/**
 * Counts a run's process for its summary line. The time is the thinking time measured live when
 * this client saw the run, else the run's duration from its usage.
 *
 * @example
 * processSummary(run); // { seconds: 12, thought: true, tools: 3, failedTools: 0 }
 */
export function processSummary(run: RunView, process: readonly MessagePart[]): ProcessSummary {
  const thought = process.some((part) => part.type === 'thinking');
  const calls = process.filter((part) => part.type === 'tool_call');
  const failedTools = process.filter((part) => part.type === 'tool_result' && part.is_error).length;
  let milliseconds: number | undefined;
  if (run.startedAt !== undefined && run.thinkingEndedAt !== undefined && calls.length === 0) {
    milliseconds = run.thinkingEndedAt - run.startedAt;
  } else if (run.assistant.usage !== undefined) {
    milliseconds = run.assistant.usage.duration_ms;
  }
  return {
    seconds: milliseconds === undefined ? undefined : Math.max(1, Math.round(milliseconds / 1000)),
    thought,
    tools: calls.length,
    failedTools,
  };
}
