import { describe, expect, it } from 'vitest';
import { openEventStream } from '../src/api/index.ts';
import type { WorkbenchEvent } from '@youyou/contracts';
import { eventFactory } from './event-fixtures.ts';

function sse(events: readonly WorkbenchEvent[]): string {
  return events
    .map((event) => `id: ${String(event.seq)}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
    .join('');
}

/** A fake server: each connection gets the events after its Last-Event-ID, then drops at `dropAfter`. */
function fakeServer(all: readonly WorkbenchEvent[], dropAfter: readonly number[]) {
  const requests: string[] = [];
  let connection = 0;
  const fetchFake = (_input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    const after = Number(headers.get('last-event-id') ?? '0');
    requests.push(String(after));
    const limit = dropAfter[connection] ?? Number.POSITIVE_INFINITY;
    connection += 1;
    // The server may repeat the last event it sent before the drop: the client must drop it.
    const slice = all.filter((event) => event.seq >= after && event.seq <= limit);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(': heartbeat\n\n' + sse(slice)));
        if (limit === Number.POSITIVE_INFINITY) return; // stays open
        controller.close();
      },
    });
    return Promise.resolve(
      new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    );
  };
  return { fetch: fetchFake, requests };
}

describe('openEventStream', () => {
  it('resumes after a dropped connection from the last seq, with nothing lost or repeated', async () => {
    const events = eventFactory();
    const all = [
      events.created('r1', 'x'),
      events.delta('r1', 'a'),
      events.delta('r1', 'b'),
      events.delta('r1', 'c'),
      events.completed('r1'),
    ];
    const server = fakeServer(all, [2, 4]);
    const seen: number[] = [];
    const states: string[] = [];
    const stream = openEventStream({
      conversationId: 'c1',
      after: 0,
      fetch: server.fetch,
      backoffMs: [1],
      onEvent: (event) => seen.push(event.seq),
      onState: (state) => states.push(state),
    });
    await expect.poll(() => seen.length).toBe(5);
    stream.close();
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    expect(server.requests).toEqual(['0', '2', '4']);
    expect(states).toContain('reconnecting');
    expect(stream.lastSeq).toBe(5);
  });

  it('ignores events of another conversation', async () => {
    const events = eventFactory('other');
    const server = fakeServer([events.created('r1', 'x')], []);
    const seen: number[] = [];
    const stream = openEventStream({
      conversationId: 'c1',
      after: 0,
      fetch: server.fetch,
      onEvent: (event) => seen.push(event.seq),
    });
    await expect.poll(() => server.requests.length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    stream.close();
    expect(seen).toEqual([]);
  });
});

describe('openEventStream of a conversation that is gone', () => {
  it('stops instead of retrying for ever', async () => {
    let requests = 0;
    const states: string[] = [];
    openEventStream({
      conversationId: 'gone',
      after: 0,
      backoffMs: [1],
      fetch: () => {
        requests += 1;
        return Promise.resolve(new Response('{"error":{"code":"NOT_FOUND"}}', { status: 404 }));
      },
      onEvent: () => undefined,
      onState: (state) => states.push(state),
    });
    await expect.poll(() => states.at(-1)).toBe('closed');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(requests).toBe(1);
  });
});
