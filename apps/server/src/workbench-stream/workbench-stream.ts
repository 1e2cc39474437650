import type { WorkbenchStreamEvent } from '@youyou/contracts';

/** The envelope version of workbench-wide events. */
export const WORKBENCH_STREAM_VERSION = 1;

type Listener = (event: WorkbenchStreamEvent) => void;

/**
 * Events that concern the whole workbench rather than one conversation (`settings.changed`, and
 * later extension and registry changes), pushed to every open tab over `GET /api/events`. They are
 * not stored: a client that reconnects re-reads what it shows, so nothing is lost by a gap.
 * Several servers on one PostgreSQL forward each other's events (the cluster's control channel).
 *
 * @example
 * const stop = stream.subscribe((event) => send(event));
 * stream.publish('settings.changed', { layer: 'user', scope_id: null, changes: [] });
 */
export class WorkbenchStream {
  readonly #listeners = new Set<Listener>();
  #nextId = 1;
  /** Sends an event this process published to the other servers. */
  readonly #forward: ((type: string, payload: unknown) => void) | undefined;

  constructor(options: { forward?: (type: string, payload: unknown) => void } = {}) {
    this.#forward = options.forward;
  }

  /** Publishes here and to the other servers. */
  publish(type: string, payload: unknown): void {
    this.deliver(type, payload);
    this.#forward?.(type, payload);
  }

  /** Publishes here only (an event another server sent). */
  deliver(type: string, payload: unknown): void {
    const event: WorkbenchStreamEvent = {
      id: this.#nextId++,
      ts: new Date().toISOString(),
      v: WORKBENCH_STREAM_VERSION,
      type,
      payload,
    };
    for (const listener of this.#listeners) listener(event);
  }

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get subscribers(): number {
    return this.#listeners.size;
  }
}
