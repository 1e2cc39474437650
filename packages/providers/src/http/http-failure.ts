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
  /**
   * Said after a 404, when the provider can guess why: e.g. a base URL without the `/v1` that
   * OpenAI-compatible servers serve their API under.
   */
  notFoundHint?: string;
}

/** Codes and types servers use for "the account is out of credit": retrying cannot help. */
const BILLING_CODES: ReadonlySet<string> = new Set([
  'insufficient_quota',
  'billing_hard_limit_reached',
  'billing_not_active',
  'insufficient_balance',
  'payment_required',
]);

function isBillingFailure(status: number, fields: ServerErrorFields): boolean {
  if (status === 402) return true;
  // Anthropic says it with a 400 `invalid_request_error`.
  if (fields.message !== undefined && /credit balance is too low/i.test(fields.message)) return true;
  return (
    (typeof fields.code === 'string' && BILLING_CODES.has(fields.code)) ||
    (typeof fields.type === 'string' && BILLING_CODES.has(fields.type))
  );
}

function billingError(
  providerId: string,
  status: number | undefined,
  message: string,
  details: Record<string, unknown>,
): AgentError {
  const where = status === undefined ? '' : `HTTP ${status}: `;
  return new AgentError(
    'PROVIDER_ERROR',
    `${providerId}: billing failure — the account has no credit or quota left (${where}${message}). ` +
      'Add credit or raise the limit in the provider’s billing settings; retrying will not help.',
    { retryable: false, details: { ...details, billing: true } },
  );
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

/**
 * A 404 about the model rather than the URL: OpenAI's `model_not_found`, Ollama's `model "x" not
 * found, try pulling it first`, Anthropic's `not_found_error` naming the model.
 */
function isModelNotFound(fields: ServerErrorFields): boolean {
  if (fields.code === 'model_not_found' || fields.type === 'model_not_found') return true;
  const message = fields.message ?? '';
  if (fields.type === 'not_found_error' && /^model:/i.test(message)) return true;
  return /\bmodel\b/i.test(message) && /(not found|does not exist|not exist|no such|unknown)/i.test(message);
}

function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Turns a non-2xx response into either the typed context-length signal or a PROVIDER_ERROR:
 * 401/403 are final and say to check the key; a billing failure (402, 429 `insufficient_quota`)
 * is final and says so; a 404 carries the provider's hint about the base URL; 408, 409, 429 and
 * 5xx (529 included) are retryable, with the wait the server asked for. An `x-should-retry`
 * header overrides. The server's error `code` and `type` are kept in the details.
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
  // The vendor's request id (OpenAI `x-request-id`, Anthropic `request-id`): what their support asks for.
  const requestId = headers.get('x-request-id') ?? headers.get('request-id');
  const details = {
    status,
    ...(fields.code === undefined || fields.code === null ? {} : { code: fields.code }),
    ...(fields.type === undefined || fields.type === null ? {} : { type: fields.type }),
    ...(requestId === null ? {} : { requestId }),
  };
  if (status === 401 || status === 403) {
    const hint = context.keyHint === undefined ? '' : ` ${context.keyHint}`;
    const message =
      `${context.providerId}: the server refused the request (HTTP ${status}: ${serverMessage}). ` +
      `Check your API key${hint}.`;
    return { kind: 'error', error: new AgentError('PROVIDER_ERROR', message, { retryable: false, details }) };
  }
  if (isBillingFailure(status, fields)) {
    return { kind: 'error', error: billingError(context.providerId, status, serverMessage, details) };
  }
  if (status !== 429 && isContextLengthError({ ...fields, message: serverMessage })) {
    return { kind: 'context_length', message: serverMessage };
  }
  if (status === 404 && isModelNotFound(fields)) {
    return {
      kind: 'error',
      error: new AgentError(
        'PROVIDER_ERROR',
        `${context.providerId}: the server has no such model (HTTP 404: ${serverMessage}). ` +
          'Pick another model, or refresh the provider’s models to see what it serves.',
        { retryable: false, details: { ...details, model_not_found: true } },
      ),
    };
  }
  if (status === 404 && context.notFoundHint !== undefined) {
    return {
      kind: 'error',
      error: new AgentError(
        'PROVIDER_ERROR',
        `${context.providerId}: HTTP 404: ${serverMessage}. ${context.notFoundHint}`,
        { retryable: false, details },
      ),
    };
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
  if (isBillingFailure(0, fields)) {
    return {
      type: 'error',
      error: billingError(providerId, undefined, message, {
        ...(fields.type === undefined ? {} : { type: fields.type }),
        ...(fields.code === undefined ? {} : { code: fields.code }),
      }),
    };
  }
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
