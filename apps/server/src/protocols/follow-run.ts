import type { EventHub, EventLog, WorkbenchEvent } from '../events/index.ts';

const PAGE = 500;
const TERMINAL: ReadonlySet<string> = new Set([
  'run.completed',
  'run.failed',
  'run.cancelled',
  'run.interrupted',
]);

/** True for the last event a run writes. */
export function isRunEnd(event: WorkbenchEvent): boolean {
  return TERMINAL.has(event.type);
}

export interface FollowRunOptions {
  eventLog: EventLog;
  hub: EventHub;
  conversationId: string;
  /** The run's events after this seq (the one before its `run.created`). */
  afterSeq: number;
  runId: string;
  /** Stops following (the client left). */
  signal?: AbortSignal;
  /** Also stop after an event for which this returns true (a HITL card the client must answer). */
  stopAfter?: (event: WorkbenchEvent) => boolean;
}

/**
 * A run's events, in order, as they are committed, until its last one: memory first (the hub
 * keeps recent events), the database when the follower fell behind. The protocol endpoints
 * (AG-UI, OpenAI-compatible) translate this into their own wire formats.
 *
 * @example
 * for await (const event of followRun({ eventLog, hub, conversationId, afterSeq: seq - 1, runId })) {
 *   if (event.type === 'message.delta') write(event.payload.text);
 * }
 */
export async function* followRun(options: FollowRunOptions): AsyncGenerator<WorkbenchEvent> {
  const { eventLog, hub, conversationId, runId, signal } = options;
  let cursor = options.afterSeq;
  let dirty = true;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    dirty = true;
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  const unsubscribe = hub.subscribe(conversationId, notify);
  signal?.addEventListener('abort', notify, { once: true });
  try {
    for (;;) {
      if (signal?.aborted === true) return;
      if (!dirty) {
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      dirty = false;
      const events =
        hub.since(conversationId, cursor, PAGE) ??
        (await eventLog.read(conversationId, { afterSeq: cursor, limit: PAGE }));
      if (events.length >= PAGE) dirty = true;
      for (const event of events) {
        cursor = Math.max(cursor, event.seq);
        if (event.run_id !== runId) continue;
        yield event;
        if (isRunEnd(event) || options.stopAfter?.(event) === true) return;
      }
    }
  } finally {
    unsubscribe();
    signal?.removeEventListener('abort', notify);
  }
}
