import { setTimeout as sleep } from 'node:timers/promises';
import { AgentError } from '@youyou/agent';
import type { ChatEvent } from '@youyou/agent';
import { classifyHttpFailure } from './http-failure.ts';
import type { FailureContext } from './http-failure.ts';
import { decodeBody } from './decode-body.ts';
import { backoffDelay } from './retry-policy.ts';
import type { RetryPolicy } from './retry-policy.ts';
import type { StreamDecoder } from './stream-decoder.ts';

export interface StreamCallOptions extends FailureContext {
  url: string;
  headers: Readonly<Record<string, string>>;
  body: string;
  signal: AbortSignal;
  retry: RetryPolicy;
  createDecoder(): StreamDecoder;
}

const MAX_ERROR_BODY_CHARACTERS = 64_000;

function cancelledEvent(): ChatEvent {
  return {
    type: 'error',
    error: new AgentError('REQUEST_CANCELLED', 'The model request was cancelled.', {
      retryable: false,
      source: 'provider',
    }),
  };
}

function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (cause instanceof Error && cause.message.length > 0) return `${error.message}: ${cause.message}`;
  return error.message;
}

function connectionError(context: FailureContext, url: string, error: unknown): AgentError {
  return new AgentError(
    'PROVIDER_ERROR',
    `${context.providerId}: could not reach ${new URL(url).origin} (${describeCause(error)}). Is the server running and the base URL right?`,
    { retryable: true, cause: error },
  );
}

function interruptedError(context: FailureContext, error: unknown): AgentError {
  return new AgentError(
    'PROVIDER_ERROR',
    `${context.providerId}: the response stream broke off before the reply was complete (${describeCause(error)}).`,
    { retryable: true, cause: error },
  );
}

/** A 200 whose body is one JSON document rather than an event stream. */
function isWholeJsonReply(response: Response): boolean {
  const type = response.headers.get('content-type') ?? '';
  return /^application\/(?:[\w.+-]+\+)?json\b/i.test(type);
}

async function* emptyBody(): AsyncGenerator<Uint8Array> {}

async function readErrorBody(response: Response): Promise<string> {
  const text = await response.text();
  return text.length > MAX_ERROR_BODY_CHARACTERS ? text.slice(0, MAX_ERROR_BODY_CHARACTERS) : text;
}

function withAttempts(error: AgentError, attempts: number): AgentError {
  if (attempts <= 1) return error;
  return new AgentError(error.code, `${error.message} (gave up after ${attempts} attempts)`, {
    retryable: error.retryable,
    source: error.source,
    details: { ...error.details, attempts },
    cause: error.cause ?? error,
  });
}

/**
 * POSTs a streaming request and yields the decoded chat events (deltas from one network read
 * merged, see `coalesceDeltas`); a 200 with a JSON body instead of a stream is read as the whole
 * reply. Failures before the first event
 * is yielded (connection refused, 429, 5xx, an error event opening the stream) are retried with
 * backoff that honours `Retry-After`; after that, failures become an `error` event and the text
 * already yielded stands. The signal aborts the request at once, even mid-backoff, and ends the
 * stream with a REQUEST_CANCELLED error; stopping the iteration early also closes the connection.
 *
 * @example
 * yield* streamCall({ providerId: 'local', url, headers, body, signal, retry, createDecoder });
 */
export async function* streamCall(options: StreamCallOptions): AsyncGenerator<ChatEvent> {
  const { signal, retry } = options;
  for (let attempt = 0; ; attempt += 1) {
    if (signal.aborted) {
      yield cancelledEvent();
      return;
    }
    const canRetry = attempt < retry.maxRetries;
    const connection = new AbortController();
    let retryError: AgentError | undefined;
    let retryAfterMs: number | undefined;
    try {
      let response: Response | undefined;
      try {
        response = await fetch(options.url, {
          method: 'POST',
          headers: options.headers,
          body: options.body,
          signal: AbortSignal.any([signal, connection.signal]),
        });
      } catch (error) {
        if (signal.aborted) {
          yield cancelledEvent();
          return;
        }
        retryError = connectionError(options, options.url, error);
      }
      if (response !== undefined && !response.ok) {
        const text = await readErrorBody(response);
        const failure = classifyHttpFailure(options, response.status, response.headers, text);
        if (failure.kind === 'context_length') {
          yield { type: 'context_length_exceeded', message: failure.message };
          return;
        }
        if (!failure.error.retryable) {
          yield { type: 'error', error: failure.error };
          return;
        }
        retryError = failure.error;
        retryAfterMs = failure.retryAfterMs;
      } else if (response !== undefined && isWholeJsonReply(response)) {
        // A server that ignored `stream: true`: its one JSON body is the complete reply.
        const decoder = options.createDecoder();
        const text = await response.text();
        const out: ChatEvent[] = [];
        if (/^\s*(?:data|event|id|retry)?:/.test(text)) {
          // An event stream mislabelled as JSON.
          for await (const batch of decodeBody([new TextEncoder().encode(text)], decoder)) out.push(...batch);
        } else {
          decoder.decodeComplete(text, out);
          if (!decoder.finished) decoder.end(out);
        }
        const first = out[0];
        if (canRetry && first?.type === 'error' && first.error.retryable) {
          retryError = first.error;
        } else {
          yield* out;
          return;
        }
      } else if (response !== undefined) {
        const decoder = options.createDecoder();
        let yielded = false;
        try {
          for await (const batch of decodeBody(response.body ?? emptyBody(), decoder)) {
            for (const chatEvent of batch) {
              if (!yielded && canRetry && chatEvent.type === 'error' && chatEvent.error.retryable) {
                retryError = chatEvent.error;
                break;
              }
              yielded = true;
              yield chatEvent;
            }
            if (retryError !== undefined) break;
          }
          if (retryError === undefined) return;
        } catch (error) {
          if (signal.aborted) {
            yield cancelledEvent();
            return;
          }
          const interrupted = interruptedError(options, error);
          if (yielded || !canRetry) {
            yield { type: 'error', error: withAttempts(interrupted, attempt + 1) };
            return;
          }
          retryError = interrupted;
        }
      }
    } catch (error) {
      // Reading an error body can only fail by abort or a broken connection.
      if (signal.aborted) {
        yield cancelledEvent();
        return;
      }
      retryError = interruptedError(options, error);
    } finally {
      connection.abort();
    }
    retryError ??= interruptedError(options, new Error('no response'));
    const delay = retryAfterMs ?? backoffDelay(retry, attempt);
    if (!canRetry || delay > retry.maxRetryAfterMs) {
      yield { type: 'error', error: withAttempts(retryError, attempt + 1) };
      return;
    }
    // Tell the agent a retry is coming: it shows the wait and does not count it as a stall.
    yield {
      type: 'retry',
      attempt: attempt + 1,
      delayMs: delay,
      error: retryError,
      maxAttempts: retry.maxRetries,
    };
    try {
      await sleep(delay, undefined, { signal });
    } catch {
      yield cancelledEvent();
      return;
    }
  }
}
