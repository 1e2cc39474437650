import type { ErrorBody } from '@youyou/contracts';

/**
 * A failed API call: the server's machine code and message (never a stack), with the HTTP status.
 *
 * @example
 * try { await api.sendMessage(id, input); } catch (error) { if (isApiError(error, 'CONVERSATION_BUSY')) … }
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: string;
  readonly status: number;
  readonly retryable: boolean;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: string,
    message: string,
    status: number,
    options: { retryable?: boolean; details?: Readonly<Record<string, unknown>> } = {},
  ) {
    super(message);
    this.code = code;
    this.status = status;
    this.retryable = options.retryable ?? false;
    this.details = options.details ?? {};
  }

  /** The error of a non-2xx response, from its ErrorBody when it has one. */
  static async fromResponse(response: {
    status: number;
    statusText: string;
    json(): Promise<unknown>;
  }): Promise<ApiError> {
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      body = undefined;
    }
    const error = (body as Partial<ErrorBody> | undefined)?.error;
    if (error !== undefined && typeof error.code === 'string') {
      return new ApiError(error.code, error.message, response.status, {
        retryable: error.retryable,
        ...(error.details === undefined ? {} : { details: error.details }),
      });
    }
    return new ApiError(
      response.status === 401 ? 'UNAUTHORIZED' : 'HTTP_ERROR',
      `${String(response.status)} ${response.statusText}`,
      response.status,
      { retryable: response.status >= 500 },
    );
  }
}

/** True when `error` is an ApiError, with this code when one is given. */
export function isApiError(error: unknown, code?: string): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}

/** A message a person can read, for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
