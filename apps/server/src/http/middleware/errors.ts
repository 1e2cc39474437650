import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
import { ALL_ERROR_CODES, ApiError, type ApiErrorCode } from '../../errors/index.ts';
import type { ServerLogger } from '../../logging/index.ts';
import type { HttpEnv } from '../../services/index.ts';

const CODE_BY_STATUS: Readonly<Record<number, ApiErrorCode>> = {
  400: 'INVALID_INPUT',
  401: 'UNAUTHORIZED',
  403: 'ORIGIN_NOT_ALLOWED',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

function apiErrorOf(error: unknown): ApiError {
  if (error instanceof HTTPException) {
    const code = CODE_BY_STATUS[error.status] ?? 'INTERNAL_ERROR';
    return new ApiError(code, error.message || 'The request could not be handled.', { cause: error });
  }
  return ApiError.fromUnknown(error);
}

/** Every failure as `{ error: { code, message, retryable, details?, request_id } }`. */
export function errorHandler(logger: ServerLogger) {
  return (error: unknown, c: Context<HttpEnv>): Response => {
    const apiError = apiErrorOf(error);
    const requestId = c.get('requestId');
    if (apiError.status >= 500) logger.error({ err: error, request_id: requestId }, 'request failed');
    return c.json(apiError.toBody(requestId), apiError.status as ContentfulStatusCode);
  };
}

/**
 * zod-openapi's validation hook: a bad request is INVALID_INPUT with the issues — or the machine
 * code a contract's refinement names in its issue's `params.code` (CONTEXT_SHARES_INVALID …).
 */
export function validationHook(result: { success: true } | { success: false; error: ZodError }): void {
  if (result.success) return;
  const coded = result.error.issues.filter((issue) => {
    const code = (issue as { params?: { code?: unknown } }).params?.code;
    return typeof code === 'string' && (ALL_ERROR_CODES as readonly string[]).includes(code);
  });
  const named = coded[0] as { params: { code: ApiErrorCode } } | undefined;
  if (named !== undefined) {
    throw new ApiError(
      named.params.code,
      `The request is not valid: ${coded.map((issue) => issue.message).join('; ')}.`,
      {
        details: {
          problems: coded.map((issue) => ({
            path: `/${issue.path.map(String).join('/')}`,
            message: issue.message,
          })),
        },
      },
    );
  }
  const issues = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
  const first = issues[0];
  throw new ApiError(
    'INVALID_INPUT',
    first === undefined
      ? 'The request is not valid.'
      : `The request is not valid: ${first.path || 'body'}: ${first.message}`,
    { details: { issues } },
  );
}
