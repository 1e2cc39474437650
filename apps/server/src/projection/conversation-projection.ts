import type { WorkbenchEvent } from '../events/index.ts';
import type { ConversationMessage, RunProjection } from './message-types.ts';
import { applyRunEvent } from './project-run.ts';

/**
 * A client-side mirror of a conversation, built from events (the Query's messages plus the SSE
 * stream after it). Unknown event types are ignored (spec §5).
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
    const runId = event.type === 'run.created' ? event.payload.run.id : event.run_id;
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
