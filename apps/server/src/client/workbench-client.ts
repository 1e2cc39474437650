import { hc } from 'hono/client';
import type { WorkbenchApp } from '../http/app.ts';

export interface WorkbenchClientOptions {
  /** The server's URL, e.g. `http://127.0.0.1:4280`; a browser on the same origin passes `''`. */
  baseUrl: string;
  /** `Authorization: Bearer` for scripts; a signed-in browser needs none (the cookie). */
  token?: string;
  fetch?: typeof fetch;
}

/**
 * A typed client of the whole API, generated from the server's routes (Hono RPC): paths,
 * parameters, bodies and responses are checked by the compiler.
 *
 * @example
 * const client = createWorkbenchClient({ baseUrl: 'http://127.0.0.1:4280', token });
 * const response = await client.api.conversations.$post({ json: { title: 'Notes' } });
 * const conversation = await response.json();
 */
export function createWorkbenchClient(options: WorkbenchClientOptions) {
  return hc<WorkbenchApp>(options.baseUrl, {
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    ...(options.token === undefined ? {} : { headers: { authorization: `Bearer ${options.token}` } }),
  });
}

export type WorkbenchClient = ReturnType<typeof createWorkbenchClient>;
