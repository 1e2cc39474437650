import { AgentError } from '@youyou/agent';
import { classifyHttpFailure } from './http-failure.ts';
import type { FailureContext } from './http-failure.ts';

export interface GetJsonOptions extends FailureContext {
  url: string;
  headers: Readonly<Record<string, string>>;
  /** Default 15 s: model discovery runs at build time and must not hang it. */
  timeoutMs?: number;
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
    throw new AgentError(
      'PROVIDER_ERROR',
      `${options.providerId}: could not reach ${options.url} to list models (${error instanceof Error ? error.message : String(error)}). ` +
        'Is the server running? Configure `models` to skip discovery.',
      { retryable: true, cause: error },
    );
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
