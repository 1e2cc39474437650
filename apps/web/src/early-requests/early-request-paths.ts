/** A request started before the app ran, and when (performance.now()) it started. */
export interface EarlyRequest {
  response: Promise<Response>;
  at: number;
}

/** The early requests by path; each is handed out once. */
export type EarlyRequests = Map<string, EarlyRequest>;

declare global {
  interface Window {
    youyouEarlyRequests?: EarlyRequests;
  }
}

/** An early answer older than this is not handed out: the app asks again instead. */
const FRESH_FOR_MS = 10_000;

/**
 * The response of an early request for this GET, if one was started and not yet taken — the
 * first screen's requests then cost nothing when the app finally asks for them. Anything else
 * (another method, a body, a signal already aborted, an answer gone stale) goes to the network.
 *
 * @example
 * const fetchEarly: typeof fetch = (input, init) => takeEarlyResponse(input, init) ?? fetch(input, init);
 */
export function takeEarlyResponse(
  input: RequestInfo | URL,
  init?: RequestInit,
): Promise<Response> | undefined {
  const requests = typeof window === 'undefined' ? undefined : window.youyouEarlyRequests;
  if (requests === undefined || requests.size === 0 || typeof input !== 'string') return undefined;
  if ((init?.method ?? 'GET') !== 'GET' || init?.signal?.aborted === true) return undefined;
  const early = requests.get(input);
  if (early === undefined) return undefined;
  requests.delete(input);
  return performance.now() - early.at > FRESH_FOR_MS ? undefined : early.response;
}
