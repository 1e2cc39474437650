import { AgentError } from '@youyou/agent';
import { classifyHttpFailure } from './http-failure.ts';
import type { FailureContext } from './http-failure.ts';

export interface GetJsonOptions extends FailureContext {
  url: string;
  headers: Readonly<Record<string, string>>;
  /** Default 15 s: model discovery runs at build time and must not hang it. */
  timeoutMs?: number;
}

function causeCode(error: unknown): string | undefined {
  const cause = error instanceof Error ? error.cause : undefined;
  const code = typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** Why a server could not be reached, in words: refused, unknown host, timed out, TLS. */
function unreachable(url: string, error: unknown): string {
  const origin = new URL(url).origin;
  const code = causeCode(error);
  if (code === 'ECONNREFUSED') {
    return `nothing is listening at ${origin} (connection refused). Is the server running, and is the port right?`;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return `the host of ${origin} is not known (${code}). Check the URL's host name.`;
  }
  if (error instanceof Error && error.name === 'TimeoutError') {
    return `${origin} did not answer in time when asked for its models. Is the server running and reachable from here?`;
  }
  const detail = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `could not reach ${origin} to list models (${detail}${cause}). Is the server running, and is the URL right?`;
}

/**
 * GETs a JSON document (used for model discovery), failing with a PROVIDER_ERROR that says what
 * went wrong: unreachable server, refused key, HTTP status, or a body that is not JSON.
 *
 * @example
 * const list = await getJson({ providerId: 'local', url: `${baseURL}/models`, headers: {} });
 */
export async function getJson(options: GetJsonOptions): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(options.url, {
      headers: options.headers,
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    });
  } catch (error) {
    throw new AgentError('PROVIDER_ERROR', `${options.providerId}: ${unreachable(options.url, error)}`, {
      retryable: true,
      cause: error,
    });
  }
  const text = await response.text();
  if (!response.ok) {
    const failure = classifyHttpFailure(options, response.status, response.headers, text);
    if (failure.kind === 'error') throw failure.error;
    throw new AgentError('PROVIDER_ERROR', `${options.providerId}: ${failure.message}`, { retryable: false });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new AgentError(
      'PROVIDER_ERROR',
      `${options.providerId}: ${options.url} did not answer with JSON: ${text.slice(0, 200)}`,
      { retryable: false, cause: error },
    );
  }
}
