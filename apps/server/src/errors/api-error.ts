import { AGENT_ERROR_CODES, isAgentError, type AgentErrorCode } from '@youyou/agent';
import {
  ARCHIVE_ERROR_CODES,
  ARTIFACT_ERROR_CODES,
  CONTEXT_ERROR_CODES,
  EXTENSION_ERROR_CODES,
  SUBAGENT_ERROR_CODES,
  UI_ACTION_ERROR_CODES,
} from '@youyou/contracts';

/**
 * Codes the HTTP API adds to the agent's (spec §10 + the workbench edge).
 *
 * @example
 * API_ERROR_CODES.includes('CONVERSATION_BUSY'); // true
 */
export const API_ERROR_CODES = [
  'UNAUTHORIZED',
  'ORIGIN_NOT_ALLOWED',
  'HOST_NOT_ALLOWED',
  'NOT_FOUND',
  'CONFLICT',
  'CONVERSATION_BUSY',
  'CARD_ALREADY_RESOLVED',
  'INVALID_ANSWER',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_ERROR',
  /** A memory write while memory is switched off (spec §4.13: off by default). */
  'MEMORY_DISABLED',
  /** An `Idempotency-Key` sent again with a different request body (issue 27). */
  'IDEMPOTENCY_KEY_REUSED',
  ...ARTIFACT_ERROR_CODES,
  ...SUBAGENT_ERROR_CODES,
  ...EXTENSION_ERROR_CODES,
  ...ARCHIVE_ERROR_CODES,
  ...UI_ACTION_ERROR_CODES,
  ...CONTEXT_ERROR_CODES,
] as const;

export type ApiOnlyErrorCode = (typeof API_ERROR_CODES)[number];

/** Every machine code an error body can carry. */
export type ApiErrorCode = ApiOnlyErrorCode | AgentErrorCode;

/**
 * Every code, the API's and the agent's.
 *
 * @example
 * ALL_ERROR_CODES.includes('NOT_FOUND'); // true
 */
export const ALL_ERROR_CODES: readonly ApiErrorCode[] = [...API_ERROR_CODES, ...AGENT_ERROR_CODES];

/**
 * The one table from machine code to HTTP status. Agent codes that only ever travel inside run
 * events still have a row, so any error can be answered over HTTP.
 *
 * @example
 * HTTP_STATUS_BY_CODE.CONVERSATION_BUSY; // 409
 */
export const HTTP_STATUS_BY_CODE: Readonly<Record<ApiErrorCode, number>> = {
  UNAUTHORIZED: 401,
  ORIGIN_NOT_ALLOWED: 403,
  HOST_NOT_ALLOWED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  CONVERSATION_BUSY: 409,
  CARD_ALREADY_RESOLVED: 409,
  INVALID_ANSWER: 422,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL_ERROR: 500,
  MEMORY_DISABLED: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  ARTIFACT_EDIT_NOT_FOUND: 422,
  ARTIFACT_EDIT_AMBIGUOUS: 422,
  ARTIFACT_VERSION_MISMATCH: 400,
  SUBAGENT_TOOL_NOT_ALLOWED: 403,
  SUBAGENT_DEPTH_EXCEEDED: 422,
  SUBAGENT_PROFILE_NOT_FOUND: 404,
  SUBAGENT_TOOL_CALLS_EXCEEDED: 422,
  SUBAGENT_TOKENS_EXCEEDED: 422,
  SUBAGENT_TIME_EXCEEDED: 422,
  EXTENSION_INVALID: 422,
  EXTENSION_INCOMPATIBLE: 422,
  EXTENSION_EXISTS: 409,
  EXTENSION_PERMISSIONS_NOT_ACCEPTED: 409,
  EXTENSION_REMOVED: 410,
  EXTENSION_DOMAIN_NOT_ALLOWED: 403,
  EXTENSION_HTTP_ERROR: 502,
  WORKFLOW_STEP_FAILED: 422,
  ARCHIVE_INVALID: 422,
  ARCHIVE_CHECKSUM_MISMATCH: 422,
  ARCHIVE_UNSAFE_PATH: 422,
  ARCHIVE_TOO_LARGE: 413,
  ARCHIVE_VERSION_UNSUPPORTED: 422,
  ARCHIVE_NAME_TAKEN: 409,
  ACTION_NOT_DECLARED: 404,
  ACTION_CONFIRMATION_REQUIRED: 409,
  ACTION_DENIED: 403,
  CONTEXT_SHARES_INVALID: 422,
  INVALID_INPUT: 400,
  PATH_NOT_ALLOWED: 403,
  FILE_TOO_LARGE: 413,
  NAME_CONFLICT: 409,
  SESSION_BUSY: 409,
  REQUEST_CANCELLED: 409,
  TOOL_NOT_FOUND: 404,
  SKILL_NOT_FOUND: 404,
  PLUGIN_NOT_FOUND: 404,
  SESSION_NOT_FOUND: 404,
  NO_MODEL_PROVIDER: 422,
  MODEL_NOT_SUPPORTED: 422,
  SKILL_DEPENDENCY_NOT_MET: 422,
  CONFIG_PARSE_ERROR: 422,
  MAX_TOOL_CALLS_EXCEEDED: 422,
  HOOK_ABORTED: 422,
  PROVIDER_ERROR: 502,
  TOOL_TIMEOUT: 504,
  STORAGE_ERROR: 503,
  TOOL_EXECUTION_ERROR: 500,
  PLUGIN_INIT_FAILED: 500,
  STORAGE_DUPLICATE: 500,
  COMPACT_ERROR: 500,
  CONTEXT_BUDGET_EXCEEDED: 422,
};

export interface ApiErrorOptions {
  details?: Readonly<Record<string, unknown>>;
  retryable?: boolean;
  cause?: unknown;
}

/** The body of every error response. */
export interface ErrorBody {
  error: {
    code: ApiErrorCode;
    message: string;
    retryable: boolean;
    details?: Readonly<Record<string, unknown>>;
    request_id?: string;
  };
}

/**
 * An error the HTTP edge answers with `HTTP_STATUS_BY_CODE[code]` and an `ErrorBody`.
 *
 * @example
 * throw new ApiError('NOT_FOUND', `No conversation has id ${id}.`, { details: { resource: 'conversation', id } });
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: ApiErrorCode;
  readonly details: Readonly<Record<string, unknown>>;
  readonly retryable: boolean;

  constructor(code: ApiErrorCode, message: string, options: ApiErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details ?? {};
    this.retryable = options.retryable ?? false;
  }

  get status(): number {
    return HTTP_STATUS_BY_CODE[this.code];
  }

  /**
   * Anything thrown, as an `ApiError`: an `AgentError` keeps its code (a component that is not
   * there becomes NOT_FOUND), anything else is INTERNAL_ERROR.
   */
  static fromUnknown(error: unknown): ApiError {
    if (error instanceof ApiError) return error;
    const encoding = databaseEncodingError(error);
    if (encoding !== undefined) {
      return new ApiError(
        'INVALID_INPUT',
        'The request is not valid: the database cannot store a value in it (a character or byte sequence it does not accept).',
        { details: { reason: 'database_encoding', sqlstate: encoding }, cause: error },
      );
    }
    if (isAgentError(error)) {
      if (error.code === 'INVALID_INPUT' && error.details['notFound'] === true) {
        return new ApiError('NOT_FOUND', error.message, { details: error.details, cause: error });
      }
      return new ApiError(error.code, error.message, {
        details: error.details,
        retryable: error.retryable,
        cause: error,
      });
    }
    return new ApiError('INTERNAL_ERROR', 'The server failed to handle the request.', {
      cause: error,
      retryable: true,
    });
  }

  toBody(requestId?: string): ErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        retryable: this.retryable,
        ...(Object.keys(this.details).length > 0 ? { details: this.details } : {}),
        ...(requestId === undefined ? {} : { request_id: requestId }),
      },
    };
  }
}

/**
 * PostgreSQL's data-exception states that mean "this value cannot be stored as text": a NUL
 * (22021 character_not_in_repertoire, 22P05 untranslatable_character), bytes not valid in the
 * encoding (22021), or input the type cannot read (22P02). They are the request's fault, not the
 * server's.
 */
const ENCODING_SQLSTATES: ReadonlySet<string> = new Set(['22021', '22P05', '22P02', '22001']);

/** The SQLSTATE of a database encoding error anywhere in `error`'s cause chain, if it is one. */
function databaseEncodingError(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && ENCODING_SQLSTATES.has(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A NOT_FOUND for one resource.
 *
 * @example
 * throw notFound('conversation', id);
 */
export function notFound(resource: string, id: string): ApiError {
  return new ApiError('NOT_FOUND', `No ${resource} has id '${id}'.`, { details: { resource, id } });
}
