import type { ReplayModelCall, RunReplay, WorkbenchEvent } from '@youyou/contracts';
import { applyToRun, createdRun, type RunView } from '../conversation-state/index.ts';

/** One row of a replay's timeline: a model call (with its report) or a recorded event. */
export type TimelineEntry =
  | { kind: 'call'; key: string; call: ReplayModelCall; at: number; through: number }
  | {
      kind: 'event';
      key: string;
      event: WorkbenchEvent;
      /** Consecutive text or thinking deltas are one row: how many, and how many characters. */
      deltas: number;
      characters: number;
      /** Milliseconds since the run's first event. */
      at: number;
      /** Index in `events` of the last event this row covers (the projection goes this far). */
      through: number;
    };

const DELTA_TYPES: ReadonlySet<string> = new Set(['message.delta', 'thinking.delta']);

function deltaLength(event: WorkbenchEvent): number {
  const { text } = event.payload as { text?: unknown };
  return typeof text === 'string' ? text.length : 0;
}

/**
 * The rows of a replay, in order: each model call just before the first event it produced (the
 * server placed it), runs of deltas merged into one row.
 *
 * @example
 * const entries = timelineOf(await api.runReplay(runId));
 */
export function timelineOf(replay: RunReplay): TimelineEntry[] {
  const { events, calls } = replay;
  const start = events[0] === undefined ? 0 : Date.parse(events[0].ts);
  const entries: TimelineEntry[] = [];
  const pending = [...calls];
  const pushCall = (call: ReplayModelCall, through: number): void => {
    entries.push({
      kind: 'call',
      key: `call-${String(call.call_index)}`,
      call,
      at: Math.max(0, Date.parse(call.report.created_at) - start),
      through,
    });
  };
  events.forEach((event, index) => {
    while (pending[0] !== undefined && pending[0].before_seq !== null && pending[0].before_seq <= event.seq) {
      pushCall(pending.shift() as ReplayModelCall, index - 1);
    }
    const last = entries.at(-1);
    if (last?.kind === 'event' && DELTA_TYPES.has(event.type) && last.event.type === event.type) {
      last.deltas += 1;
      last.characters += deltaLength(event);
      last.through = index;
      return;
    }
    entries.push({
      kind: 'event',
      key: `event-${String(event.seq)}`,
      event,
      deltas: DELTA_TYPES.has(event.type) ? 1 : 0,
      characters: deltaLength(event),
      at: Math.max(0, Date.parse(event.ts) - start),
      through: index,
    });
  });
  // Calls after the last event (refused over budget, or cut short) close the timeline.
  for (const call of pending) pushCall(call, events.length - 1);
  return entries;
}

/**
 * The answer as it stood after `events[0..through]`, projected the way the conversation
 * projects it live; undefined before the run's `run.created`.
 *
 * @example
 * <Parts parts={projectThrough(replay.events, entry.through)?.assistant.parts ?? []} />
 */
export function projectThrough(events: readonly WorkbenchEvent[], through: number): RunView | undefined {
  let run: RunView | undefined;
  for (const event of events.slice(0, through + 1)) {
    const now = Date.parse(event.ts);
    if (event.type === 'run.created') run ??= createdRun(event, now);
    else if (run !== undefined) run = applyToRun(run, event, now);
  }
  return run;
}

/** The last model call at or before row `position`: the report shown beside the timeline. */
export function callAt(entries: readonly TimelineEntry[], position: number): ReplayModelCall | undefined {
  for (let index = Math.min(position, entries.length - 1); index >= 0; index -= 1) {
    const entry = entries[index];
    if (entry?.kind === 'call') return entry.call;
  }
  return undefined;
}
