import { AgentError, type AgentErrorJSON } from '../errors/index.ts';
import type { AgentEvent, TurnSummary } from '../events/index.ts';
import { ModelCall } from '../model-call/index.ts';
import { stopKindOf, stopReason, type StopKind } from './stop-reason.ts';

/**
 * The turn loop: its events, and the model calls it starts. The `Turn` streams a yielded call
 * straight from the provider, then resumes the loop, which reads the call's reply and outcome.
 */
export type TurnLoop = AsyncGenerator<AgentEvent | ModelCall, void, undefined>;

/** Running → Cancelling → Cancelled / Completed / Failed (spec §4.1). */
export type TurnState = 'running' | 'cancelling' | 'cancelled' | 'completed' | 'failed';

export interface TurnResult {
  state: Exclude<TurnState, 'running' | 'cancelling'>;
  summary: TurnSummary;
  error?: AgentErrorJSON;
  /** For a cancelled turn: whether the user cancelled it or its host interrupted it. */
  stop?: StopKind;
}

/** What the turn loop uses to drive its Turn. */
export interface TurnControl {
  readonly turnId: string;
  /** Aborted when the turn stops early; its reason carries the kind (`stopKindOf`). */
  readonly signal: AbortSignal;
  /** Stops the turn from inside, e.g. when its consumer stops iterating. */
  cancel(reason?: AgentError): void;
  finish(result: TurnResult): void;
}

type Pulled = IteratorResult<AgentEvent, undefined>;

/**
 * One user interaction: an async iterable of `AgentEvent`s, ending with TurnComplete or
 * TurnCancelled. The turn runs as it is iterated; `done()` drains it when nobody iterates.
 *
 * @example
 * const turn = session.send('What changed in src/?');
 * for await (const event of turn) if (event.type === 'TextDelta') process.stdout.write(event.text);
 */
export class Turn implements AsyncIterable<AgentEvent>, AsyncIterator<AgentEvent, undefined> {
  readonly id: string;
  readonly #controller = new AbortController();
  readonly #loop: TurnLoop;
  /** The model call being streamed, pulled directly until it ends. */
  #call: ModelCall | undefined;
  readonly #finished: Promise<TurnResult>;
  #state: TurnState = 'running';
  #iterated = false;

  constructor(id: string, run: (control: TurnControl) => TurnLoop, signal?: AbortSignal) {
    this.id = id;
    let resolveFinished!: (result: TurnResult) => void;
    this.#finished = new Promise((resolve) => (resolveFinished = resolve));
    if (signal !== undefined) {
      const forward = (): void =>
        this.cancel(signal.reason instanceof AgentError ? signal.reason : undefined);
      if (signal.aborted) forward();
      else signal.addEventListener('abort', forward, { once: true });
    }
    this.#loop = run({
      turnId: id,
      signal: this.#controller.signal,
      cancel: (reason) => this.cancel(reason),
      finish: (result) => {
        this.#state = result.state;
        const stop = result.state === 'cancelled' ? this.stopKind : undefined;
        resolveFinished(stop === undefined ? result : { ...result, stop });
      },
    });
  }

  get state(): TurnState {
    return this.#state;
  }

  /** Whether a stopped turn was cancelled by its user or interrupted by its host. */
  get stopKind(): StopKind | undefined {
    return this.#controller.signal.aborted ? stopKindOf(this.#controller.signal.reason) : undefined;
  }

  /**
   * Stops the turn: the model stream ends at once (its partial text is kept as an incomplete
   * message), running tools finish, pending ones get a "cancelled" result, TurnCancelled comes last.
   * `reason` (default `stopReason('cancel')`) is the abort reason everything downstream sees.
   */
  cancel(reason: AgentError = stopReason('cancel')): void {
    if (this.#state !== 'running') return;
    this.#state = 'cancelling';
    this.#controller.abort(reason);
  }

  [Symbol.asyncIterator](): AsyncIterator<AgentEvent, undefined> {
    if (this.#iterated) throw new AgentError('INVALID_INPUT', 'A turn can be iterated only once.');
    this.#iterated = true;
    return this;
  }

  next(): Promise<Pulled> {
    const call = this.#call;
    return call === undefined ? this.#advance() : call.pull(this.#afterCall);
  }

  /** Leaving a `for await` early: an interrupt whose events nobody reads; partial output is kept. */
  async return(): Promise<Pulled> {
    const reason = stopReason('interrupt', 'The turn was closed by its consumer.');
    this.#call?.close(reason);
    this.#call = undefined;
    this.cancel(reason);
    await this.#loop.return(undefined);
    return { value: undefined, done: true };
  }

  readonly #afterCall = (): Promise<Pulled> => {
    this.#call = undefined;
    return this.#advance();
  };

  async #advance(): Promise<Pulled> {
    const result = await this.#loop.next();
    if (result.done === true) return { value: undefined, done: true };
    const value = result.value;
    if (!(value instanceof ModelCall)) return { value, done: false };
    this.#call = value;
    return value.pull(this.#afterCall);
  }

  /** Resolves when the turn has ended; consumes the events itself if nobody iterates them. */
  async done(): Promise<TurnResult> {
    if (!this.#iterated) {
      for await (const _event of this) {
        // draining: the caller wants only the outcome
      }
    }
    return this.#finished;
  }
}
