import { AgentError } from '@youyou/agent';
import { isContextLengthError } from './context-length.ts';
import { parseRetryAfter } from './retry-policy.ts';

/** What a failed response means for the caller. */
export type HttpFailure =
  { kind: 'context_length'; message: string } | { kind: 'error'; error: AgentError; retryAfterMs?: number };

/** The fields a server's error body carries, whichever of the known shapes it used. */
export interface ServerErrorFields {
  message?: string;
  code?: unknown;
  type?: unknown;
}

export interface FailureContext {
  providerId: string;
  /** Said after "Check your API key" on 401/403, e.g. "(ANTHROPIC_API_KEY)". */
  keyHint?: string;
}

/**
 * Reads the error fields from the body shapes servers use: OpenAI and most compatible servers
 * (`{ error: { message, type, code } }`), Anthropic (`{ type: 'error', error: { type, message } }`),
 * vLLM (`{ object: 'error', message, type, code }`) and Ollama (`{ error: 'text' }`).
 *
 * @example
 * readServerError('{"error":{"message":"bad key","code":"invalid_api_key"}}');
 * // { message: 'bad key', code: 'invalid_api_key', type: undefined }
 */
export function readServerError(body: unknown): ServerErrorFields {
  let value = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body) as unknown;
    } catch {
      const text = body.trim();
      return text.length > 0 ? { message: text.slice(0, 1_000) } : {};
    }
  }
  if (typeof value !== 'object' || value === null) return {};
  const record = value as Record<string, unknown>;
  const inner = record['error'];
  if (typeof inner === 'string') return { message: inner };
  if (typeof inner === 'object' && inner !== null) {
    const error = inner as Record<string, unknown>;
    return {
      ...(typeof error['message'] === 'string' ? { message: error['message'] } : {}),
      code: error['code'],
      type: error['type'],
    };
  }
  return {
    ...(typeof record['message'] === 'string' ? { message: record['message'] } : {}),
    code: record['code'],
    type: record['type'],
  };
}

function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Turns a non-2xx response into either the typed context-length signal or a PROVIDER_ERROR:
 * 401/403 are final and say to check the key; 408, 409, 429 and 5xx (529 included) are
 * retryable, with the wait the server asked for. An `x-should-retry` header overrides.
 *
 * @example
 * const failure = classifyHttpFailure({ providerId: 'openai' }, 429, response.headers, text);
 * if (failure.kind === 'error' && failure.error.retryable) await sleep(failure.retryAfterMs ?? 500);
 */
export function classifyHttpFailure(
  context: FailureContext,
  status: number,
  headers: Headers,
  bodyText: string,
): HttpFailure {
  const fields = readServerError(bodyText);
  const serverMessage = fields.message ?? (bodyText.trim().slice(0, 500) || `HTTP ${status}`);
  const details = { status, ...(fields.code === undefined ? {} : { code: fields.code }) };
  if (status === 401 || status === 403) {
    const hint = context.keyHint === undefined ? '' : ` ${context.keyHint}`;
    const message =
      `${context.providerId}: the server refused the request (HTTP ${status}: ${serverMessage}). ` +
      `Check your API key${hint}.`;
    return { kind: 'error', error: new AgentError('PROVIDER_ERROR', message, { retryable: false, details }) };
  }
  if (status !== 429 && isContextLengthError({ ...fields, message: serverMessage })) {
    return { kind: 'context_length', message: serverMessage };
  }
  const shouldRetry = headers.get('x-should-retry');
  const retryable =
    shouldRetry === 'true' ? true : shouldRetry === 'false' ? false : isRetryableStatus(status);
  const retryAfterMs = parseRetryAfter(headers);
  const error = new AgentError('PROVIDER_ERROR', `${context.providerId}: HTTP ${status}: ${serverMessage}`, {
    retryable,
    details: retryAfterMs === undefined ? details : { ...details, retryAfterMs },
  });
  return retryAfterMs === undefined ? { kind: 'error', error } : { kind: 'error', error, retryAfterMs };
}

/**
 * An error reported inside a stream that already answered 200 (OpenRouter and vLLM send
 * `data: {"error": …}`, Anthropic sends `event: error`).
 *
 * @example
 * streamErrorEvent('anthropic', { type: 'overloaded_error', message: 'Overloaded' });
 */
export function streamErrorEvent(
  providerId: string,
  fields: ServerErrorFields,
  retryableTypes: ReadonlySet<string> = RETRYABLE_ERROR_TYPES,
): { type: 'context_length_exceeded'; message: string } | { type: 'error'; error: AgentError } {
  const message = fields.message ?? 'the server reported an error in the stream';
  if (isContextLengthError({ ...fields, message })) return { type: 'context_length_exceeded', message };
  const code = typeof fields.code === 'number' ? fields.code : Number.NaN;
  const retryable =
    (typeof fields.type === 'string' && retryableTypes.has(fields.type)) ||
    (typeof fields.code === 'string' && retryableTypes.has(fields.code)) ||
    (Number.isInteger(code) && isRetryableStatus(code));
  return {
    type: 'error',
    error: new AgentError('PROVIDER_ERROR', `${providerId}: ${message}`, {
      retryable,
      details: {
        ...(fields.type === undefined ? {} : { type: fields.type }),
        ...(fields.code === undefined ? {} : { code: fields.code }),
      },
    }),
  };
}

/** Error types that mean "try again later" in the servers' own words. */
export const RETRYABLE_ERROR_TYPES: ReadonlySet<string> = new Set([
  'overloaded_error',
  'api_error',
  'rate_limit_error',
  'rate_limit_exceeded',
  'server_error',
  'timeout_error',
  'service_unavailable',
]);
