import type { WorkbenchEvent } from '@youyou/contracts';

export interface EventStreamOptions {
  baseUrl: string;
  conversationId: string;
  /** Resume after this seq (the Query's `last_seq`, or the last event seen). */
  after: number;
  token?: string;
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

/**
 * Reads a conversation's SSE stream as events (one connection; reconnecting with the last seq is
 * the caller's choice). Works with `fetch`, so it can send the token header where `EventSource`
 * cannot.
 *
 * @example
 * for await (const event of readConversationEvents({ baseUrl, conversationId, after: view.last_seq, token })) {
 *   mirror.apply(event);
 * }
 */
export async function* readConversationEvents(options: EventStreamOptions): AsyncGenerator<WorkbenchEvent> {
  const request = options.fetch ?? fetch;
  const response = await request(
    `${options.baseUrl}/api/conversations/${encodeURIComponent(options.conversationId)}/events`,
    {
      headers: {
        accept: 'text/event-stream',
        'last-event-id': String(options.after),
        ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
      },
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    },
  );
  if (!response.ok || response.body === null) {
    throw new Error(`The event stream answered ${response.status}: ${await response.text()}`);
  }
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body) {
    buffer += decoder.decode(chunk as Uint8Array, { stream: true });
    let boundary = buffer.indexOf('\n\n');
    while (boundary >= 0) {
      const frame = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      const data = frame
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      if (data !== '') yield JSON.parse(data) as WorkbenchEvent;
      boundary = buffer.indexOf('\n\n');
    }
  }
}
