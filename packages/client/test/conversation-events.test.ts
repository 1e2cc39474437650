import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkbenchEvent } from '@youyou/contracts';
import { ApiError, readConversationEvents, type StreamState } from '@youyou/client';

function event(seq: number, type: string, payload: Record<string, unknown>): WorkbenchEvent {
  return {
    seq,
    run_id: 'r1',
    conversation_id: 'c1',
    ts: '2026-01-01T00:00:00.000Z',
    v: 1,
    type,
    payload,
  } as WorkbenchEvent;
}

const ALL = [
  event(1, 'message.delta', { message_id: 'm', text: 'a' }),
  event(2, 'hologram.shown', { colour: 'blue' }),
  event(3, 'message.delta', { message_id: 'm', text: 'b' }),
  event(4, 'message.delta', { message_id: 'm', text: 'c' }),
  event(5, 'run.cancelled', { message_id: 'm' }),
];

/** A CRLF-framed SSE frame, the way some proxies rewrite streams. */
function frame(value: WorkbenchEvent): string {
  return `id: ${String(value.seq)}\r\nevent: ${value.type}\r\ndata: ${JSON.stringify(value)}\r\n\r\n`;
}

interface Loopback {
  url: string;
  lastEventIds: string[];
  close(): Promise<void>;
}

let running: Loopback | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/**
 * A loopback server: each connection gets the events after its Last-Event-ID (repeating the last
 * one it already sent, as a careless server might) and ends after `cutAfter[connection]`.
 */
async function serve(cutAfter: readonly number[]): Promise<Loopback> {
  const lastEventIds: string[] = [];
  const open = new Set<ServerResponse>();
  let connection = 0;
  const server: Server = createServer((request, response) => {
    if (request.url !== '/api/conversations/c1/events') {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ error: { code: 'NOT_FOUND', message: 'No such conversation.', retryable: false } }),
      );
      return;
    }
    const after = Number(request.headers['last-event-id'] ?? '0');
    lastEventIds.push(String(after));
    const cut = cutAfter[connection] ?? Number.POSITIVE_INFINITY;
    connection += 1;
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write(':heartbeat\r\n\r\n');
    for (const value of ALL) if (value.seq >= after && value.seq <= cut) response.write(frame(value));
    if (cut === Number.POSITIVE_INFINITY) open.add(response);
    else response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    lastEventIds,
    close: async () => {
      for (const response of open) response.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('readConversationEvents', () => {
  it('reads a CRLF stream, resumes after every cut with Last-Event-ID, and loses or repeats nothing', async () => {
    running = await serve([2, 4]);
    const controller = new AbortController();
    const states: StreamState[] = [];
    const seen: number[] = [];
    for await (const received of readConversationEvents({
      baseUrl: running.url,
      conversationId: 'c1',
      after: 0,
      backoffMs: [1],
      signal: controller.signal,
      onState: (state) => states.push(state),
    })) {
      seen.push(received.seq);
      if (received.type === 'run.cancelled') controller.abort();
    }
    expect(seen).toEqual([1, 3, 4, 5]); // 2 is a type this client does not know: skipped
    expect(running.lastEventIds).toEqual(['0', '2', '4']);
    expect(states).toEqual(['connecting', 'open', 'reconnecting', 'open', 'reconnecting', 'open', 'closed']);
  });

  it('stops with the server’s error when the conversation does not exist', async () => {
    running = await serve([]);
    const reading = (async () => {
      for await (const _ of readConversationEvents({
        baseUrl: running.url,
        conversationId: 'gone',
        after: 0,
      })) {
        // nothing arrives
      }
    })();
    await expect(reading).rejects.toSatisfy(
      (error: unknown) => error instanceof ApiError && error.code === 'NOT_FOUND' && error.status === 404,
    );
  });

  it('with reconnect off, ends when the connection does', async () => {
    running = await serve([3]);
    const seen: number[] = [];
    for await (const received of readConversationEvents({
      baseUrl: running.url,
      conversationId: 'c1',
      after: 0,
      reconnect: false,
    })) {
      seen.push(received.seq);
    }
    expect(seen).toEqual([1, 3]);
  });
});
