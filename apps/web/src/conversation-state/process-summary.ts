import type { MessagePart } from '@youyou/contracts';
import type { RunView } from './run-view.ts';

const PROCESS_TYPES: ReadonlySet<string> = new Set(['thinking', 'tool_call', 'tool_result']);

/** A provider's "failed, trying again" notice (a non-fatal error with its attempt number). */
export function isRetryNotice(part: MessagePart): boolean {
  return part.type === 'error' && !part.fatal && typeof part.error.details?.['attempt'] === 'number';
}

/**
 * A provider retry shows as one line, not one card per attempt: of consecutive retry notices only
 * the newest stays, and none stays once the run failed for good (its final error card says what
 * to do).
 *
 * @example
 * collapseRetryNotices([retry1, retry2, text]); // [retry2, text]
 */
export function collapseRetryNotices(parts: readonly MessagePart[]): readonly MessagePart[] {
  if (!parts.some(isRetryNotice)) return parts;
  const failed = parts.some((part) => part.type === 'error' && part.fatal);
  return parts.filter((part, index) => {
    if (!isRetryNotice(part)) return true;
    if (failed) return false;
    const next = parts[index + 1];
    return next === undefined || !isRetryNotice(next);
  });
}

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
    // Errors, the artifacts a turn wrote and the cards it posted stay in view when its process folds.
    if (index <= lastProcess && part.type !== 'error' && part.type !== 'artifact' && part.type !== 'card')
      process.push(part);
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
