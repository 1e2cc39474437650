import type { ErrorBody } from '@youyou/contracts';

/**
 * A failed API call: the server's machine code and message (never a stack), the HTTP status,
 * whether retrying can help, and the request id to quote in a report.
 *
 * @example
 * try {
 *   await client.sendMessage(id, { text: 'Hi' });
 * } catch (error) {
 *   if (isApiError(error, 'CONVERSATION_BUSY')) showBusy();
 * }
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: string;
  readonly status: number;
  readonly retryable: boolean;
  readonly details: Readonly<Record<string, unknown>>;
  readonly requestId: string | undefined;

  constructor(
    code: string,
    message: string,
    status: number,
    options: { retryable?: boolean; details?: Readonly<Record<string, unknown>>; requestId?: string } = {},
  ) {
    super(message);
    this.code = code;
    this.status = status;
    this.retryable = options.retryable ?? false;
    this.details = options.details ?? {};
    this.requestId = options.requestId;
  }

  /**
   * The error of a non-2xx response, from its error body when it has one.
   *
   * @example
   * if (!response.ok) throw await ApiError.fromResponse(response);
   */
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
        ...(error.request_id === undefined ? {} : { requestId: error.request_id }),
      });
    }
    return new ApiError(
      response.status === 401 ? 'UNAUTHORIZED' : 'HTTP_ERROR',
      `${String(response.status)} ${response.statusText}`,
      response.status,
      { retryable: response.status >= 500 || response.status === 429 },
    );
  }
}

/**
 * True when `error` is an ApiError, with this code when one is given.
 *
 * @example
 * if (isApiError(error, 'NOT_FOUND')) navigateHome();
 */
export function isApiError(error: unknown, code?: string): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}
