/**
 * Every failure the agent reports is an `AgentError` with one of these machine codes (spec §10).
 * Build-time codes come first, run-time codes after.
 */
export const AGENT_ERROR_CODES = [
  'NO_MODEL_PROVIDER',
  'NAME_CONFLICT',
  'SKILL_DEPENDENCY_NOT_MET',
  'PLUGIN_INIT_FAILED',
  'CONFIG_PARSE_ERROR',
  'STORAGE_DUPLICATE',
  'SESSION_BUSY',
  'MODEL_NOT_SUPPORTED',
  'PROVIDER_ERROR',
  'TOOL_EXECUTION_ERROR',
  'TOOL_TIMEOUT',
  'TOOL_NOT_FOUND',
  'SKILL_NOT_FOUND',
  'SESSION_NOT_FOUND',
  'STORAGE_ERROR',
  'MAX_TOOL_CALLS_EXCEEDED',
  'COMPACT_ERROR',
  'REQUEST_CANCELLED',
  'FILE_TOO_LARGE',
  'PATH_NOT_ALLOWED',
  // Beyond spec §10: a bad argument from the caller, a turn stopped by a plugin's Abort, and a
  // missing plugin (tools and skills have their own not-found codes).
  'INVALID_INPUT',
  'HOOK_ABORTED',
  'PLUGIN_NOT_FOUND',
  // A request that does not fit the model's window even after every slot was trimmed (spec §4.10):
  // it is never sent.
  'CONTEXT_BUDGET_EXCEEDED',
] as const;

export type AgentErrorCode = (typeof AGENT_ERROR_CODES)[number];

/** The component an error came from (spec §10). */
export type AgentErrorSource = 'agent' | 'provider' | 'tool' | 'plugin' | 'storage';

const RETRYABLE_BY_DEFAULT: ReadonlySet<AgentErrorCode> = new Set(['PROVIDER_ERROR', 'STORAGE_ERROR']);

const SOURCE_BY_CODE: Partial<Record<AgentErrorCode, AgentErrorSource>> = {
  PROVIDER_ERROR: 'provider',
  MODEL_NOT_SUPPORTED: 'provider',
  TOOL_EXECUTION_ERROR: 'tool',
  TOOL_TIMEOUT: 'tool',
  TOOL_NOT_FOUND: 'tool',
  PLUGIN_INIT_FAILED: 'plugin',
  HOOK_ABORTED: 'plugin',
  PLUGIN_NOT_FOUND: 'plugin',
  STORAGE_ERROR: 'storage',
  STORAGE_DUPLICATE: 'storage',
  SESSION_NOT_FOUND: 'storage',
};

export interface AgentErrorOptions {
  retryable?: boolean;
  source?: AgentErrorSource;
  cause?: unknown;
  /** Structured facts for programs (a path, a limit, a line number); never needed to read the message. */
  details?: Readonly<Record<string, unknown>>;
}

/**
 * The one error class of `@youyou/agent`.
 *
 * @example
 * try {
 *   await agent.newSession();
 * } catch (error) {
 *   if (error instanceof AgentError && error.code === 'SESSION_BUSY') await current.close();
 * }
 */
export class AgentError extends Error {
  override readonly name = 'AgentError';
  readonly code: AgentErrorCode;
  readonly retryable: boolean;
  readonly source: AgentErrorSource;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: AgentErrorCode, message: string, options: AgentErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.retryable = options.retryable ?? RETRYABLE_BY_DEFAULT.has(code);
    this.source = options.source ?? SOURCE_BY_CODE[code] ?? 'agent';
    this.details = options.details ?? {};
  }

  /**
   * Wraps anything thrown at a boundary: an `AgentError` passes through unchanged, anything else
   * becomes `fallbackCode` with the original kept as `cause`.
   */
  static fromUnknown(
    error: unknown,
    fallbackCode: AgentErrorCode,
    options: Omit<AgentErrorOptions, 'cause'> = {},
  ): AgentError {
    if (error instanceof AgentError) return error;
    const message = error instanceof Error ? error.message : String(error);
    return new AgentError(fallbackCode, message, { ...options, cause: error });
  }

  /** A plain object for logs, events and HTTP bodies. */
  toJSON(): AgentErrorJSON {
    return {
      code: this.code,
      message: this.message,
      retryable: this.retryable,
      source: this.source,
      ...(Object.keys(this.details).length > 0 ? { details: this.details } : {}),
    };
  }
}

export interface AgentErrorJSON {
  code: AgentErrorCode;
  message: string;
  retryable: boolean;
  source: AgentErrorSource;
  details?: Readonly<Record<string, unknown>>;
}

/** True when `error` is an `AgentError`, optionally with the given code. */
export function isAgentError(error: unknown, code?: AgentErrorCode): error is AgentError {
  return error instanceof AgentError && (code === undefined || error.code === code);
}
