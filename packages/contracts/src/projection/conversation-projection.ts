import type { WorkbenchEvent } from '../events/index.ts';
import type { ConversationMessage } from '../messages/index.ts';
import { applyRunEvent, type RunProjection } from './run-projection.ts';

/**
 * A mirror of a conversation built from events (the Query's messages plus the SSE stream after
 * it), for scripts and tests. Unknown event types are ignored (spec §5).
 *
 * @example
 * const mirror = new ConversationProjection();
 * for (const event of events) mirror.apply(event);
 * mirror.messages(); // the messages of every run seen, in run order
 */
export class ConversationProjection {
  readonly #runs = new Map<string, RunProjection>();
  #title: string | undefined;
  #lastSeq = 0;

  get lastSeq(): number {
    return this.#lastSeq;
  }

  get title(): string | undefined {
    return this.#title;
  }

  apply(event: WorkbenchEvent): void {
    if (event.seq > this.#lastSeq) this.#lastSeq = event.seq;
    if (event.type === 'conversation.updated') {
      if (event.payload.title !== undefined) this.#title = event.payload.title;
      return;
    }
    const runId = runIdOf(event);
    if (runId === null) return;
    const next = applyRunEvent(this.#runs.get(runId), event);
    if (next !== undefined) this.#runs.set(runId, next);
  }

  run(runId: string): RunProjection | undefined {
    return this.#runs.get(runId);
  }

  /** User and assistant messages of the given runs (default: every run, in the order first seen). */
  messages(runIds?: readonly string[]): ConversationMessage[] {
    const ids = runIds ?? [...this.#runs.keys()];
    return ids.flatMap((id) => {
      const projection = this.#runs.get(id);
      return projection === undefined ? [] : [projection.user, projection.assistant];
    });
  }
}

/**
 * The run an event belongs to: the created run for `run.created`, else the envelope's `run_id`.
 *
 * @example
 * projections.get(runIdOf(event) ?? '');
 */
export function runIdOf(event: WorkbenchEvent): string | null {
  return event.type === 'run.created' ? event.payload.run.id : event.run_id;
}
