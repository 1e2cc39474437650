import { AgentError } from '../errors/index.ts';
import type { AgentEvent } from '../events/agent-event.ts';
import type {
  ChatEvent,
  ChatRequest,
  FinishReason,
  ModelProvider,
  ToolCallRequest,
  Usage,
} from '../provider/index.ts';

/** The reply being streamed: filled in place, so every way out of a turn can keep what arrived. */
export class Reply {
  // Pieces, joined on read: one array slot per delta instead of one cons-string per delta.
  readonly #parts: string[] = [];
  reasoning = '';
  /** Set once the model streamed refusal text (kept in `text`, marked on its deltas). */
  refused = false;
  readonly calls: ToolCallRequest[] = [];

  appendText(text: string): void {
    this.#parts.push(text);
  }

  get text(): string {
    if (this.#parts.length > 1) this.#parts.splice(0, this.#parts.length, this.#parts.join(''));
    return this.#parts[0] ?? '';
  }
}

/** How a model call ended. A cancel leaves it empty; the turn reads its own signal. */
export interface StreamOutcome {
  failure?: AgentError;
  overflow?: string;
  usage?: Usage;
  finishReason?: FinishReason;
  providerMetadata?: Readonly<Record<string, unknown>>;
}

/**
 * What the turn loop yields to have a model call streamed. The `Turn` pulls the provider directly,
 * one chunk per `next()`, and resumes the loop with the outcome: the text-delta path is a single
 * promise hop over the provider's own iterator, with no generator in between.
 */
export interface ModelStreamRequest {
  type: 'model_stream';
  provider: ModelProvider;
  request: ChatRequest;
  reply: Reply;
  signal: AbortSignal;
  firstChunkTimeoutMs: number;
  chunkTimeoutMs: number;
  /** Wraps a delta in the turn's envelope. */
  delta(type: 'TextDelta' | 'ReasoningDelta', text: string): AgentEvent;
  /** Wraps refusal text as a TextDelta marked as a refusal. */
  refusal(text: string): AgentEvent;
  /** Wraps a provider's retry notice in the turn's envelope, as a non-fatal error. */
  retrying(error: AgentError, attempt: number, delayMs: number): AgentEvent;
}

/** A provider stream in flight, driven chunk by chunk by `pull()`. */
export class ActiveStream {
  readonly #spec: ModelStreamRequest;
  readonly #controller = new AbortController();
  readonly #outcome: StreamOutcome = {};
  readonly #onAbort: () => void;
  readonly #watchdog: NodeJS.Timeout;
  readonly #tickMs: number;
  #iterator: AsyncIterator<ChatEvent> | undefined;
  /** The pending pull; a chunk or the end resolves it. */
  #resolve:
    | ((
        result: IteratorResult<AgentEvent, undefined> | Promise<IteratorResult<AgentEvent, undefined>>,
      ) => void)
    | undefined;
  #onEnd: (() => Promise<IteratorResult<AgentEvent, undefined>>) | undefined;
  #ended = false;
  /** Stall detection without a clock read per chunk: the watchdog counts ticks with no progress. */
  #chunks = 0;
  #chunksAtLastTick = 0;
  #idleTicks = 0;
  /** Ticks of a provider's announced retry wait, which are not a stall. */
  #graceTicks = 0;

  constructor(spec: ModelStreamRequest) {
    this.#spec = spec;
    this.#onAbort = () => {
      this.#controller.abort(spec.signal.reason);
      // A provider that ignores its signal must not hold a cancelled turn.
      this.#settle();
    };
    spec.signal.addEventListener('abort', this.#onAbort, { once: true });
    this.#tickMs = Math.max(5, Math.min(spec.firstChunkTimeoutMs, spec.chunkTimeoutMs) / 4);
    this.#watchdog = setInterval(() => this.#checkStall(), this.#tickMs);
    this.#watchdog.unref();
    try {
      const stream = spec.provider.chat(spec.request, { signal: this.#controller.signal });
      this.#iterator = stream[Symbol.asyncIterator]();
    } catch (error) {
      this.#fail(error);
    }
  }

  /**
   * Resolves with the next delta event, or — when the stream has ended, with `outcome()` telling
   * how — with whatever `onEnd()` resolves to. Tool calls and usage are gathered without surfacing.
   */
  pull(
    onEnd: () => Promise<IteratorResult<AgentEvent, undefined>>,
  ): Promise<IteratorResult<AgentEvent, undefined>> {
    this.#onEnd = onEnd;
    const iterator = this.#iterator;
    if (this.#ended || iterator === undefined || this.#spec.signal.aborted) {
      this.#end();
      return onEnd();
    }
    const pending = new Promise<IteratorResult<AgentEvent, undefined>>(
      (resolve) => (this.#resolve = resolve),
    );
    iterator.next().then(this.#step, this.#onError);
    return pending;
  }

  outcome(): StreamOutcome {
    return this.#outcome;
  }

  /** Stops the provider: used when the consumer leaves mid-stream. */
  close(): void {
    this.#controller.abort(new AgentError('REQUEST_CANCELLED', 'The turn was closed.'));
    this.#end();
  }

  readonly #step = (result: IteratorResult<ChatEvent>): void => {
    if (this.#ended) return;
    if (result.done === true) return this.#settle();
    const event = result.value;
    if (event.type === 'retry') {
      this.#graceTicks = Math.ceil(event.delayMs / this.#tickMs);
      return this.#deliver(this.#spec.retrying(event.error, event.attempt, event.delayMs));
    }
    this.#chunks++;
    const reply = this.#spec.reply;
    switch (event.type) {
      case 'text_delta':
        reply.appendText(event.text);
        return this.#deliver(this.#spec.delta('TextDelta', event.text));
      case 'refusal_delta':
        reply.appendText(event.text);
        reply.refused = true;
        return this.#deliver(this.#spec.refusal(event.text));
      case 'reasoning_delta':
        reply.reasoning += event.text;
        return this.#deliver(this.#spec.delta('ReasoningDelta', event.text));
      case 'tool_call':
        reply.calls.push({ callId: event.callId, toolName: event.toolName, arguments: event.arguments });
        break;
      case 'done':
        if (event.usage !== undefined) this.#outcome.usage = event.usage;
        if (event.finishReason !== undefined) this.#outcome.finishReason = event.finishReason;
        if (event.providerMetadata !== undefined) this.#outcome.providerMetadata = event.providerMetadata;
        return this.#settle();
      case 'error':
        this.#outcome.failure = event.error;
        return this.#settle();
      case 'context_length_exceeded':
        this.#outcome.overflow = event.message;
        return this.#settle();
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
    const onEnd = this.#onEnd;
    this.#resolve = undefined;
    if (resolve !== undefined && onEnd !== undefined) resolve(onEnd());
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
    const limit = this.#chunks > 0 ? this.#spec.chunkTimeoutMs : this.#spec.firstChunkTimeoutMs;
    if (this.#idleTicks * this.#tickMs < limit) return;
    const stall = new AgentError(
      'PROVIDER_ERROR',
      `Provider '${this.#spec.provider.id}' sent nothing for ${limit} ms ${this.#chunks > 0 ? 'between chunks' : 'before the first chunk'}; the stream was ended.`,
      { retryable: true, details: { stallMs: limit, model: this.#spec.request.model } },
    );
    this.#outcome.failure = stall;
    this.#controller.abort(stall);
    this.#settle();
  }

  #fail(error: unknown): void {
    // After a cancel, whatever the provider throws is just how it stopped.
    if (!this.#spec.signal.aborted && this.#outcome.failure === undefined) {
      this.#outcome.failure = AgentError.fromUnknown(error, 'PROVIDER_ERROR', {
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
    this.#spec.signal.removeEventListener('abort', this.#onAbort);
    const iterator = this.#iterator;
    if (iterator?.return !== undefined) {
      // Closing a stalled provider may itself hang; the abort already asked it to stop.
      void Promise.resolve()
        .then(() => iterator.return?.())
        .catch(() => {});
    }
  }
}
