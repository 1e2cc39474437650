import { ApiError } from './api-error.ts';

/** Where the server is and how to reach it. */
export interface ConnectionOptions {
  /** The server's URL, e.g. `http://127.0.0.1:4280`; default `''`: the page's own origin in a browser. */
  baseUrl?: string;
  /** Sent as `Authorization: Bearer`; a signed-in browser needs none (the session cookie). */
  token?: string;
  /** Another `fetch` (a test's, a proxy's); default the global one. */
  fetch?: typeof fetch;
  /** `credentials` of every request; browsers default to `same-origin`. */
  credentials?: RequestCredentials;
}

/** What a JSON request carries besides its method and path. */
export interface JsonRequest {
  query?: Readonly<Record<string, string | number | boolean | undefined>>;
  body?: unknown;
  /** Extra request headers (an `Idempotency-Key`). */
  headers?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
}

/** The resolved connection every request goes through. */
export interface Connection {
  url(path: string, query?: Readonly<Record<string, string | number | boolean | undefined>>): string;
  /** fetch with the token and credentials applied. */
  fetch(url: string, init?: RequestInit): Promise<Response>;
  /** A JSON request; a non-2xx answer throws ApiError, an empty answer resolves to undefined. */
  json<Result>(method: string, path: string, options?: JsonRequest): Promise<Result>;
}

/**
 * Resolves connection options into the one place requests are made.
 *
 * @example
 * const connection = connect({ baseUrl: 'http://127.0.0.1:4280', token });
 * await connection.json('GET', '/api/health');
 */
export function connect(options: ConnectionOptions = {}): Connection {
  const baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
  // Looked up per call, so a test can replace globalThis.fetch after the client is made.
  const doFetch = (input: string, init?: RequestInit): Promise<Response> =>
    (options.fetch ?? globalThis.fetch)(input, init);
  const connection: Connection = {
    url(path, query) {
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries(query ?? {})) {
        if (value !== undefined) search.set(key, String(value));
      }
      const text = search.toString();
      return `${baseUrl}${path}${text === '' ? '' : `?${text}`}`;
    },
    fetch(url, init = {}) {
      const headers = new Headers(init.headers);
      if (options.token !== undefined && !headers.has('authorization')) {
        headers.set('authorization', `Bearer ${options.token}`);
      }
      return doFetch(url, {
        ...init,
        headers,
        ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
      });
    },
    async json<Result>(method: string, path: string, request: JsonRequest = {}): Promise<Result> {
      const headers = new Headers({ ...request.headers, accept: 'application/json' });
      if (request.body !== undefined) headers.set('content-type', 'application/json');
      const response = await connection.fetch(connection.url(path, request.query), {
        method,
        headers,
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        ...(request.signal === undefined ? {} : { signal: request.signal }),
      });
      if (!response.ok) throw await ApiError.fromResponse(response);
      const text = await response.text();
      return (text === '' ? undefined : JSON.parse(text)) as Result;
    },
  };
  return connection;
}
