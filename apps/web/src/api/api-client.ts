import { createWorkbenchClient, type WorkbenchClient } from '@youyou/client';
import { takeEarlyResponse } from '../early-requests/index.ts';

/** Everything the UI asks of the server: `@youyou/client`'s typed client; tests pass a fake. */
export type ApiClient = WorkbenchClient;

/**
 * The UI's client: same-origin, with the session cookie the login URL set. The first screen's
 * GETs are answered by the requests index.html started early, when there are any.
 *
 * @example
 * const api = createHttpClient();
 * const { conversations } = await api.listConversations({ query: 'parser' });
 */
export function createHttpClient(options: { baseUrl?: string; fetch?: typeof fetch } = {}): ApiClient {
  // Looked up per call, so a test can replace globalThis.fetch after the client is made.
  const network: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  return createWorkbenchClient({
    baseUrl: options.baseUrl ?? '',
    credentials: 'same-origin',
    fetch: (input, init) => takeEarlyResponse(input, init) ?? network(input, init),
  });
}
