import { AgentError } from '../errors/index.ts';
import type { ChatEvent, ChatRequest, ModelProvider } from './model-provider.ts';

export interface GuardOptions {
  signal: AbortSignal;
  firstChunkTimeoutMs: number;
  chunkTimeoutMs: number;
}

/**
 * Streams a provider's reply with the guarantees the turn loop relies on: a stall before the first
 * chunk or between chunks ends the stream with a retryable PROVIDER_ERROR, anything the provider
 * throws becomes an `error` event, and cancellation reaches the provider's signal at once. After a
 * cancel the stream simply ends; the caller reads `signal.aborted`.
 */
export async function* guardedChat(
  provider: ModelProvider,
  request: ChatRequest,
  options: GuardOptions,
): AsyncGenerator<ChatEvent> {
  const controller = new AbortController();
  const forwardAbort = (): void => controller.abort(options.signal.reason);
  if (options.signal.aborted) return;
  options.signal.addEventListener('abort', forwardAbort, { once: true });

  let lastChunkAt = performance.now();
  let received = false;
  let failPending: ((error: unknown) => void) | undefined;
  let stall: AgentError | undefined;
  const watchdog = setInterval(
    () => {
      const limit = received ? options.chunkTimeoutMs : options.firstChunkTimeoutMs;
      if (performance.now() - lastChunkAt <= limit) return;
      stall = new AgentError(
        'PROVIDER_ERROR',
        `Provider '${provider.id}' sent nothing for ${limit} ms ${received ? 'between chunks' : 'before the first chunk'}; the stream was ended.`,
        { retryable: true, details: { stallMs: limit, model: request.model } },
      );
      controller.abort(stall);
      failPending?.(stall);
    },
    Math.max(5, Math.min(options.firstChunkTimeoutMs, options.chunkTimeoutMs) / 4),
  );
  watchdog.unref();

  let iterator: AsyncIterator<ChatEvent> | undefined;
  try {
    iterator = provider.chat(request, { signal: controller.signal })[Symbol.asyncIterator]();
    const source = iterator;
    for (;;) {
      // A hand-made promise per chunk lets the watchdog fail a provider that ignores its signal,
      // without the reaction leak of racing one long-lived promise 200,000 times.
      const result = await new Promise<IteratorResult<ChatEvent>>((resolve, reject) => {
        failPending = reject;
        source.next().then(resolve, reject);
      });
      if (result.done === true) return;
      received = true;
      lastChunkAt = performance.now();
      yield result.value;
      const type = result.value.type;
      if (type === 'done' || type === 'error' || type === 'context_length_exceeded') return;
    }
  } catch (error) {
    if (options.signal.aborted && stall === undefined) return;
    yield {
      type: 'error',
      error:
        stall ??
        AgentError.fromUnknown(error, 'PROVIDER_ERROR', {
          source: 'provider',
          retryable: error instanceof AgentError ? error.retryable : true,
        }),
    };
  } finally {
    clearInterval(watchdog);
    failPending = undefined;
    options.signal.removeEventListener('abort', forwardAbort);
    if (iterator?.return !== undefined) {
      // Closing a stalled provider may itself hang; the abort above already asked it to stop.
      void Promise.resolve(iterator.return()).catch(() => {});
    }
  }
}
