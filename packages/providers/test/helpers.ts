import type { ChatEvent, ChatRequest, Message, ModelProvider } from '@youyou/agent';

/** A chat request with nothing in it but what the test sets. */
export function chatRequest(overrides: Partial<ChatRequest> = {}): ChatRequest {
  return {
    model: 'fake-model',
    systemPrompt: 'You are terse.',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
    tools: [],
    ...overrides,
  };
}

/** A user message of plain text. */
export function userText(text: string): Message {
  return { role: 'user', content: [{ type: 'text', text }] };
}

/** Runs one chat call to the end and returns every event. */
export async function collect(
  provider: ModelProvider,
  request: ChatRequest = chatRequest(),
  signal: AbortSignal = new AbortController().signal,
): Promise<ChatEvent[]> {
  const events: ChatEvent[] = [];
  for await (const event of provider.chat(request, { signal })) events.push(event);
  return events;
}

/** The streamed text of a list of events. */
export function textOf(events: readonly ChatEvent[]): string {
  return events.map((event) => (event.type === 'text_delta' ? event.text : '')).join('');
}

/** The streamed reasoning of a list of events. */
export function reasoningOf(events: readonly ChatEvent[]): string {
  return events.map((event) => (event.type === 'reasoning_delta' ? event.text : '')).join('');
}

/** The last event, which ends every stream. */
export function lastEvent(events: readonly ChatEvent[]): ChatEvent {
  const last = events.at(-1);
  if (last === undefined) throw new Error('the stream produced no events');
  return last;
}

/** The request body the fake server received for chat request number `index`. */
export function bodyOf(requests: readonly { body: unknown }[], index = 0): Record<string, unknown> {
  const body = requests[index]?.body;
  if (typeof body !== 'object' || body === null) throw new Error(`no JSON body for request ${index}`);
  return body as Record<string, unknown>;
}

/** Fast retries, so tests of backoff do not wait. */
export const fastRetry = { initialDelayMs: 1, maxDelayMs: 5 };
