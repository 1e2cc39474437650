import { createWorkbenchClient, type WorkbenchClient } from '@youyou/client';

/** Everything the UI asks of the server: `@youyou/client`'s typed client; tests pass a fake. */
export type ApiClient = WorkbenchClient;

/**
 * The UI's client: same-origin, with the session cookie the login URL set.
 *
 * @example
 * const api = createHttpClient();
 * const { conversations } = await api.listConversations({ query: 'parser' });
 */
export function createHttpClient(options: { baseUrl?: string; fetch?: typeof fetch } = {}): ApiClient {
  return createWorkbenchClient({
    baseUrl: options.baseUrl ?? '',
    credentials: 'same-origin',
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
}
