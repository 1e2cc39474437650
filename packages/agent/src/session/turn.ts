import { AgentError, type AgentErrorJSON } from '../errors/index.ts';
import type { AgentEvent, TurnSummary } from '../events/agent-event.ts';
import { ActiveStream, type ModelStreamRequest, type StreamOutcome } from './model-stream.ts';

/** The turn loop: events, and requests to stream a model call, resumed with the call's outcome. */
export type TurnLoop = AsyncGenerator<AgentEvent | ModelStreamRequest, void, StreamOutcome | undefined>;

/** Running → Cancelling → Cancelled / Completed / Failed (spec §4.1). */
export type TurnState = 'running' | 'cancelling' | 'cancelled' | 'completed' | 'failed';

export interface TurnResult {
  state: Exclude<TurnState, 'running' | 'cancelling'>;
  summary: TurnSummary;
  error?: AgentErrorJSON;
}

/** What the turn loop uses to drive its Turn. */
export interface TurnControl {
  readonly turnId: string;
  readonly signal: AbortSignal;
  /** Cancels the turn from inside, e.g. when its consumer stops iterating. */
  cancel(): void;
  finish(result: TurnResult): void;
}

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
  #stream: ActiveStream | undefined;
  readonly #finished: Promise<TurnResult>;
  #state: TurnState = 'running';
  #iterated = false;

  constructor(id: string, run: (control: TurnControl) => TurnLoop, signal?: AbortSignal) {
    this.id = id;
    let resolveFinished!: (result: TurnResult) => void;
    this.#finished = new Promise((resolve) => (resolveFinished = resolve));
    if (signal !== undefined) {
      if (signal.aborted) this.cancel();
      else signal.addEventListener('abort', () => this.cancel(), { once: true });
    }
    this.#loop = run({
      turnId: id,
      signal: this.#controller.signal,
      cancel: () => this.cancel(),
      finish: (result) => {
        this.#state = result.state;
        resolveFinished(result);
      },
    });
  }

  get state(): TurnState {
    return this.#state;
  }

  /**
   * Stops the turn: the model stream ends at once (its partial text is kept as an incomplete
   * message), running tools finish, pending ones get a "cancelled" result, TurnCancelled comes last.
   */
  cancel(): void {
    if (this.#state !== 'running') return;
    this.#state = 'cancelling';
    this.#controller.abort(new AgentError('REQUEST_CANCELLED', 'The turn was cancelled.'));
  }

  [Symbol.asyncIterator](): AsyncIterator<AgentEvent, undefined> {
    if (this.#iterated) throw new AgentError('INVALID_INPUT', 'A turn can be iterated only once.');
    this.#iterated = true;
    return this;
  }

  next(): Promise<IteratorResult<AgentEvent, undefined>> {
    const stream = this.#stream;
    return stream === undefined ? this.#advance(undefined) : stream.pull(this.#endStream);
  }

  /** Leaving a `for await` early: a cancel whose events nobody reads; partial output is kept. */
  async return(): Promise<IteratorResult<AgentEvent, undefined>> {
    this.#stream?.close();
    this.#stream = undefined;
    await this.#loop.return(undefined);
    return { value: undefined, done: true };
  }

  readonly #endStream = (): Promise<IteratorResult<AgentEvent, undefined>> => {
    const outcome = this.#stream?.outcome();
    this.#stream = undefined;
    return this.#advance(outcome);
  };

  async #advance(input: StreamOutcome | undefined): Promise<IteratorResult<AgentEvent, undefined>> {
    const result = await this.#loop.next(input);
    if (result.done === true) return { value: undefined, done: true };
    const value = result.value;
    if (value.type !== 'model_stream') return { value, done: false };
    const stream = new ActiveStream(value);
    this.#stream = stream;
    return stream.pull(this.#endStream);
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
