import { AgentError } from '../errors/index.ts';
import type { AgentEvent, EventStamp } from '../events/index.ts';
import type { ChatEvent, ChatRequest, FinishReason, ModelProvider, Usage } from '../provider/index.ts';
import { Reply } from './reply.ts';

export interface ModelCallOptions {
  provider: ModelProvider;
  request: ChatRequest;
  /** The turn's signal: aborting it stops the provider at once. */
  signal: AbortSignal;
  firstChunkTimeoutMs: number;
  chunkTimeoutMs: number;
  /**
   * Stamps the call's events (text, reasoning, refusal deltas and retry notices). Without it the
   * call is quiet: it produces no events and is read with `settled()` (summaries, memory).
   */
  stamp?: EventStamp;
}

/** How a model call ended. A cancel leaves it empty; the caller reads its own signal. */
export interface ModelCallOutcome {
  failure?: AgentError;
  /** The provider said the request did not fit the window. */
  overflow?: { message: string; limit?: number; requested?: number };
  usage?: Usage;
  finishReason?: FinishReason;
  providerMetadata?: Readonly<Record<string, unknown>>;
}

type Pulled = IteratorResult<AgentEvent, undefined>;

const DONE: Pulled = { value: undefined, done: true };

/**
 * One call to a model, from request to outcome: it owns the provider's stream, the stall
 * watchdog (spec §10: a stalled stream is a retryable PROVIDER_ERROR) and the provider's retry
 * notices, and fills its `reply` as chunks arrive. It is driven chunk by chunk with `pull()`: the
 * text-delta path is one promise hop over the provider's own iterator, with no generator between.
 *
 * @example
 * const call = new ModelCall({ provider, request, signal, firstChunkTimeoutMs: 60_000,
 *   chunkTimeoutMs: 30_000 });
 * const outcome = await call.settled();
 * console.log(call.reply.text, outcome.finishReason);
 */
export class ModelCall {
  readonly reply = new Reply();
  readonly outcome: ModelCallOutcome = {};
  readonly #options: ModelCallOptions;
  readonly #stamp: EventStamp | undefined;
  readonly #controller = new AbortController();
  readonly #onAbort: () => void;
  readonly #watchdog: NodeJS.Timeout;
  readonly #tickMs: number;
  #iterator: AsyncIterator<ChatEvent> | undefined;
  /** The pending pull; a chunk or the end resolves it. */
  #resolve: ((result: Pulled | Promise<Pulled>) => void) | undefined;
  #onEnd: () => Pulled | Promise<Pulled> = () => DONE;
  #ended = false;
  /** Stall detection without a clock read per chunk: the watchdog counts ticks with no progress. */
  #chunks = 0;
  #chunksAtLastTick = 0;
  #idleTicks = 0;
  /** Ticks of a provider's announced retry wait, which are not a stall. */
  #graceTicks = 0;

  constructor(options: ModelCallOptions) {
    this.#options = options;
    this.#stamp = options.stamp;
    this.#onAbort = () => {
      this.#controller.abort(options.signal.reason);
      // A provider that ignores its signal must not hold a cancelled turn.
      this.#settle();
    };
    options.signal.addEventListener('abort', this.#onAbort, { once: true });
    this.#tickMs = Math.max(5, Math.min(options.firstChunkTimeoutMs, options.chunkTimeoutMs) / 4);
    this.#watchdog = setInterval(() => this.#checkStall(), this.#tickMs);
    this.#watchdog.unref();
    try {
      const stream = options.provider.chat(options.request, { signal: this.#controller.signal });
      this.#iterator = stream[Symbol.asyncIterator]();
    } catch (error) {
      this.#fail(error);
    }
  }

  /**
   * Resolves with the call's next event or — once the call has ended and `outcome` says how — with
   * whatever `onEnd()` gives. Tool calls and usage are gathered into `reply`/`outcome` silently.
   */
  pull(onEnd: () => Pulled | Promise<Pulled>): Promise<Pulled> {
    this.#onEnd = onEnd;
    const iterator = this.#iterator;
    if (this.#ended || iterator === undefined || this.#options.signal.aborted) {
      this.#end();
      return Promise.resolve(onEnd());
    }
    const pending = new Promise<Pulled>((resolve) => (this.#resolve = resolve));
    iterator.next().then(this.#step, this.#onError);
    return pending;
  }

  /** Streams the call to its end; for a quiet call (no `stamp`), the only way to read it. */
  settled(): Promise<ModelCallOutcome> {
    const drain = async (): Promise<ModelCallOutcome> => {
      while ((await this.pull(() => DONE)).done !== true) {
        // a stamped call's events are dropped here: the caller wants only the outcome
      }
      return this.outcome;
    };
    return drain();
  }

  /** Stops the provider: the consumer left mid-stream. */
  close(reason: unknown): void {
    this.#controller.abort(reason);
    this.#end();
  }

  readonly #step = (result: IteratorResult<ChatEvent>): void => {
    if (this.#ended) return;
    if (result.done === true) return this.#settle();
    const event = result.value;
    const stamp = this.#stamp;
    if (event.type === 'retry') {
      this.#graceTicks = Math.ceil(event.delayMs / this.#tickMs);
      if (stamp !== undefined) {
        const { error, attempt, delayMs, maxAttempts } = event;
        return this.#deliver(
          stamp.stamp({
            type: 'Error',
            fatal: false,
            error: {
              ...error.toJSON(),
              details: {
                ...error.details,
                attempt,
                retryInMs: delayMs,
                ...(maxAttempts === undefined ? {} : { maxAttempts }),
              },
            },
          }),
        );
      }
    } else {
      this.#chunks++;
      const reply = this.reply;
      switch (event.type) {
        case 'text_delta':
          reply.appendText(event.text);
          if (stamp !== undefined) return this.#deliver(stamp.delta('TextDelta', event.text));
          break;
        case 'reasoning_delta':
          reply.reasoning += event.text;
          if (stamp !== undefined) return this.#deliver(stamp.delta('ReasoningDelta', event.text));
          break;
        case 'refusal_delta':
          reply.appendText(event.text);
          reply.refused = true;
          if (stamp !== undefined)
            return this.#deliver(stamp.stamp({ type: 'TextDelta', text: event.text, refusal: true }));
          break;
        case 'tool_call':
          reply.calls.push({ callId: event.callId, toolName: event.toolName, arguments: event.arguments });
          break;
        case 'done': {
          const outcome = this.outcome;
          if (event.usage !== undefined) outcome.usage = event.usage;
          if (event.providerMetadata !== undefined) outcome.providerMetadata = event.providerMetadata;
          // A refusal reported as a plain stop is still a refusal to whoever shows the turn's end.
          const reason =
            reply.refused && (event.finishReason ?? 'stop') === 'stop' ? 'refusal' : event.finishReason;
          if (reason !== undefined) outcome.finishReason = reason;
          return this.#settle();
        }
        case 'error':
          this.outcome.failure = event.error;
          return this.#settle();
        case 'context_length_exceeded':
          this.outcome.overflow = {
            message: event.message,
            ...(event.limit === undefined ? {} : { limit: event.limit }),
            ...(event.requested === undefined ? {} : { requested: event.requested }),
          };
          return this.#settle();
      }
    }
    this.#iterator?.next().then(this.#step, this.#onError);
  };

  readonly #onError = (error: unknown): void => {
    if (this.#ended) return;
    this.#fail(error);
    this.#settle();
  };

  #deliver(event: AgentEvent): void {
    const resolve = this.#resolve;
    this.#resolve = undefined;
    resolve?.({ value: event, done: false });
  }

  /** Ends the stream and hands the pending pull, if any, to `onEnd`. */
  #settle(): void {
    this.#end();
    const resolve = this.#resolve;
    this.#resolve = undefined;
    if (resolve !== undefined) resolve(this.#onEnd());
  }

  #checkStall(): void {
    if (this.#ended) return;
    const waiting = this.#resolve !== undefined;
    if (!waiting || this.#chunks !== this.#chunksAtLastTick) {
      // Progress, or a consumer that has not asked for more: neither is a stall.
      if (this.#chunks !== this.#chunksAtLastTick) this.#graceTicks = 0;
      this.#chunksAtLastTick = this.#chunks;
      this.#idleTicks = 0;
      return;
    }
    if (this.#graceTicks > 0) {
      this.#graceTicks--;
      return;
    }
    this.#idleTicks++;
    const { chunkTimeoutMs, firstChunkTimeoutMs, provider, request } = this.#options;
    const limit = this.#chunks > 0 ? chunkTimeoutMs : firstChunkTimeoutMs;
    if (this.#idleTicks * this.#tickMs < limit) return;
    const stall = new AgentError(
      'PROVIDER_ERROR',
      `Provider '${provider.id}' sent nothing for ${limit} ms ${this.#chunks > 0 ? 'between chunks' : 'before the first chunk'}; the stream was ended.`,
      { retryable: true, details: { stallMs: limit, model: request.model } },
    );
    this.outcome.failure = stall;
    this.#controller.abort(stall);
    this.#settle();
  }

  #fail(error: unknown): void {
    // After a cancel, whatever the provider throws is just how it stopped.
    if (!this.#options.signal.aborted && this.outcome.failure === undefined) {
      this.outcome.failure = AgentError.fromUnknown(error, 'PROVIDER_ERROR', {
        source: 'provider',
        retryable: error instanceof AgentError ? error.retryable : true,
      });
    }
    this.#end();
  }

  #end(): void {
    if (this.#ended) return;
    this.#ended = true;
    clearInterval(this.#watchdog);
    this.#options.signal.removeEventListener('abort', this.#onAbort);
    const iterator = this.#iterator;
    if (iterator?.return !== undefined) {
      // Closing a stalled provider may itself hang; the abort already asked it to stop.
      void Promise.resolve()
        .then(() => iterator.return?.())
        .catch(() => {});
    }
  }
}
