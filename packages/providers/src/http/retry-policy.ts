/**
 * How a provider retries a call that failed before it produced anything.
 *
 * @example
 * openaiCompatible({ id: 'local', baseURL, retry: { maxRetries: 5, maxRetryAfterMs: 120_000 } });
 */
export interface RetryOptions {
  /** Attempts after the first; default 2. */
  maxRetries?: number;
  /** The first backoff, doubled on each retry (with ±20% jitter); default 500 ms. */
  initialDelayMs?: number;
  /** The backoff ceiling; default 8 s. */
  maxDelayMs?: number;
  /**
   * The longest `Retry-After` the provider waits out. A server asking for longer gets a
   * retryable error at once, so the caller decides. Default 60 s.
   */
  maxRetryAfterMs?: number;
}

export type RetryPolicy = Required<RetryOptions>;

export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  maxRetries: 2,
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
});

/** Fills the unset fields of `options` with the defaults. */
export function resolveRetryPolicy(options: RetryOptions | undefined): RetryPolicy {
  return { ...DEFAULT_RETRY_POLICY, ...options };
}

/** The exponential backoff before retry number `retry` (0 for the first retry). */
export function backoffDelay(policy: RetryPolicy, retry: number): number {
  const base = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** retry);
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/**
 * The wait a response asks for, from `retry-after-ms` (sent by OpenAI) or `Retry-After` in
 * seconds or as an HTTP date. Undefined when the response names none.
 *
 * @example
 * parseRetryAfter(new Headers({ 'retry-after': '2' })); // 2000
 */
export function parseRetryAfter(headers: Headers, now = Date.now()): number | undefined {
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds !== null && /^\d+(\.\d+)?$/.test(milliseconds.trim())) {
    return Math.ceil(Number(milliseconds));
  }
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
