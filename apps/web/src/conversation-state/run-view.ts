import {
  applyRunEvent,
  createRunProjection,
  type EventOfType,
  type RunProjection,
  type WorkbenchEvent,
} from '@youyou/contracts';

/**
 * One run as the UI shows it: the contract's projection plus this client's clock, for the
 * "Thought for 12 s" line. Immutable: every change makes new objects.
 */
export interface RunView extends RunProjection {
  /** Client clock: when the first event of this run was seen live, and when thinking ended. */
  startedAt?: number;
  thinkingEndedAt?: number;
}

/**
 * A RunView from a `run.created` event seen live.
 *
 * @example
 * const run = createdRun(event, Date.now());
 */
export function createdRun(event: EventOfType<'run.created'>, now: number): RunView {
  return { ...createRunProjection(event), startedAt: now };
}

/**
 * Applies one event with the contract's `applyRunEvent` (the same object back when nothing
 * changed) and notes on this client's clock when the run was first seen and when thinking gave
 * way to text.
 *
 * @example
 * let run = createdRun(created, Date.now());
 * run = applyToRun(run, deltaEvent, Date.now());
 */
export function applyToRun(run: RunView, event: WorkbenchEvent, now: number): RunView {
  const next = applyRunEvent(run, event);
  if (next === run) return run;
  const thinkingEnded =
    run.thinkingEndedAt === undefined &&
    event.type === 'message.delta' &&
    run.assistant.parts.at(-1)?.type === 'thinking';
  return { ...next, startedAt: run.startedAt ?? now, ...(thinkingEnded ? { thinkingEndedAt: now } : {}) };
}
