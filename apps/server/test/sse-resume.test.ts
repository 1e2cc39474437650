import { request as httpRequest } from 'node:http';
import type { FakeStep } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationView } from '../src/conversations/index.ts';
import type { WorkbenchEvent } from '../src/events/index.ts';
import { ConversationProjection, type ConversationMessage } from '@youyou/contracts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { isRunEnd, readEvents } from './support/sse.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

/** A small seeded generator, so a failing drop pattern can be replayed from the printed seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function longReply(pieces: number): { type: 'stream'; steps: FakeStep[]; stepDelayMs: number } {
  const steps: FakeStep[] = [{ type: 'reasoning', text: 'Thinking it over. ' }];
  for (let index = 0; index < pieces; index++) steps.push({ type: 'text', text: `piece-${index} ` });
  return { type: 'stream', steps, stepDelayMs: 3 };
}

function withoutSiblings(messages: readonly ConversationMessage[]): ConversationMessage[] {
  return messages.map(({ siblings: _siblings, ...message }) => message);
}

describe.each(DATABASE_KINDS)('SSE resume on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database, server: { deltaIntervalMs: 4, stallTimeoutMs: 400 } });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it.each([1, 2, 3])(
    'a client dropped at random points (seed %i) resumes with Last-Event-ID and ends exactly at the Query',
    async (seed) => {
      const next = random(seed * 7919);
      const conversation = await server.call<{ id: string }>('POST', '/api/conversations', {});
      const start = await server.call<ConversationView>('GET', `/api/conversations/${conversation.id}`);
      server.fake.push(longReply(150), longReply(60));
      const first = await server.call<{ run: { id: string } }>(
        'POST',
        `/api/conversations/${conversation.id}/messages`,
        {
          text: 'Tell me a long story',
        },
      );

      const received: WorkbenchEvent[] = [];
      let cursor = start.last_seq;
      let drops = 0;
      let secondRunId: string | undefined;
      for (;;) {
        const dropAfter = 1 + Math.floor(next() * 12);
        const batch = await readEvents({
          url: server.url,
          token: server.token,
          conversationId: conversation.id,
          after: cursor,
          // Stop at every run end too: the next events come only after the test sends again.
          until: (event, sofar) => isRunEnd(event) || sofar.length >= dropAfter,
        });
        received.push(...batch);
        cursor = batch.at(-1)?.seq ?? cursor;
        drops++;
        if (secondRunId === undefined && received.some((event) => isRunEnd(event, first.run.id))) {
          // A second turn while the client keeps dropping.
          secondRunId = (
            await server.call<{ run: { id: string } }>(
              'POST',
              `/api/conversations/${conversation.id}/messages`,
              {
                text: 'And another',
              },
            )
          ).run.id;
        }
        if (secondRunId !== undefined && received.some((event) => isRunEnd(event, secondRunId))) break;
      }
      expect(drops).toBeGreaterThan(3);

      const seqs = received.map((event) => event.seq);
      expect(new Set(seqs).size).toBe(seqs.length);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      const stored = await server.call<{ events: WorkbenchEvent[] }>(
        'GET',
        `/api/conversations/${conversation.id}/event-log?after=${start.last_seq}&limit=5000`,
      );
      expect(seqs).toEqual(stored.events.map((event) => event.seq));

      const view = await server.call<ConversationView>('GET', `/api/conversations/${conversation.id}`);
      const mirror = new ConversationProjection();
      for (const event of received) mirror.apply(event);
      expect(withoutSiblings(view.messages)).toEqual(mirror.messages());
      expect(view.messages[1]?.parts.find((part) => part.type === 'text')).toMatchObject({
        text: Array.from({ length: 150 }, (_, index) => `piece-${index} `).join(''),
      });
    },
  );

  it('a client cut off in the middle of a frame loses only that frame and resumes from the last whole event', async () => {
    const conversation = await server.call<{ id: string }>('POST', '/api/conversations', {});
    server.fake.push(longReply(100));
    const sent = await server.call<{ run: { id: string } }>(
      'POST',
      `/api/conversations/${conversation.id}/messages`,
      {
        text: 'Go',
      },
    );
    const received: WorkbenchEvent[] = [];
    let cursor = 0;
    for (
      let attempt = 0;
      attempt < 50 && !received.some((event) => isRunEnd(event, sent.run.id));
      attempt++
    ) {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 15 + attempt * 3);
      try {
        const response = await fetch(`${server.url}/api/conversations/${conversation.id}/events`, {
          headers: { authorization: `Bearer ${server.token}`, 'last-event-id': String(cursor) },
          signal: controller.signal,
        });
        let buffer = '';
        for await (const chunk of response.body as ReadableStream<Uint8Array>) {
          buffer += Buffer.from(chunk).toString('utf8');
          let boundary = buffer.indexOf('\n\n');
          while (boundary >= 0) {
            const data = buffer
              .slice(0, boundary)
              .split('\n')
              .find((line) => line.startsWith('data: '));
            buffer = buffer.slice(boundary + 2);
            if (data !== undefined) {
              const event = JSON.parse(data.slice(6)) as WorkbenchEvent;
              received.push(event);
              cursor = event.seq;
            }
            boundary = buffer.indexOf('\n\n');
          }
        }
      } catch {
        // cut off: resume
      }
    }
    const view = await server.settled(conversation.id, sent.run.id);
    const mirror = new ConversationProjection();
    for (const event of received) mirror.apply(event);
    expect(withoutSiblings(view.messages)).toEqual(mirror.messages());
  });

  it('a client that stops reading is dropped rather than buffered for, and resumes without loss', async () => {
    const conversation = await server.call<{ id: string }>('POST', '/api/conversations', {});
    const big = 'x'.repeat(64 * 1024);
    server.fake.push({
      type: 'stream',
      steps: Array.from({ length: 256 }, () => ({ type: 'text' as const, text: big })),
      stepDelayMs: 1,
    });
    let resumeReading: () => void = () => {};
    const reading = new Promise<string>((resolve, reject) => {
      const request = httpRequest(
        `${server.url}/api/conversations/${conversation.id}/events`,
        { headers: { authorization: `Bearer ${server.token}`, 'last-event-id': '0' } },
        (response) => {
          const chunks: Buffer[] = [];
          response.once('data', () => response.pause());
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          resumeReading = () => response.resume();
          // A paused socket notices nothing; once it reads again it finds the stream cut short.
          response.once('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
        },
      );
      request.once('error', reject);
      request.end();
    });
    const sent = await server.call<{ run: { id: string } }>(
      'POST',
      `/api/conversations/${conversation.id}/messages`,
      {
        text: 'Flood me',
      },
    );
    const view = await server.settled(conversation.id, sent.run.id);
    const deadline = Date.now() + 10_000;
    while (!server.logs.some((line) => line.includes('"reason":"stalled"')) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(server.logs.some((line) => line.includes('"reason":"stalled"'))).toBe(true);
    resumeReading();
    const partial = await reading;
    // Whole frames only: the last one may be cut.
    const frames = partial.split('\n\n');
    frames.pop();
    const seen = frames
      .filter((frame) => frame.startsWith('id: ') && frame.includes('\ndata: '))
      .map((frame) => JSON.parse(frame.slice(frame.indexOf('data: ') + 6)) as WorkbenchEvent)
      .filter((event) => event.type !== undefined);
    expect(seen.some((event) => isRunEnd(event, sent.run.id))).toBe(false);

    const rest = await readEvents({
      url: server.url,
      token: server.token,
      conversationId: conversation.id,
      after: seen.at(-1)?.seq ?? 0,
      until: (event) => isRunEnd(event, sent.run.id),
    });
    const mirror = new ConversationProjection();
    for (const event of [...seen, ...rest]) mirror.apply(event);
    expect(withoutSiblings(view.messages)).toEqual(mirror.messages());
    const text = view.messages[1]?.parts.find((part) => part.type === 'text');
    expect(text?.type === 'text' ? text.text.length : 0).toBe(256 * big.length);
  });

  it('an idle stream carries heartbeats', async () => {
    const conversation = await server.call<{ id: string }>('POST', '/api/conversations', {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 1_400);
    let text = '';
    try {
      const response = await fetch(`${server.url}/api/conversations/${conversation.id}/events`, {
        headers: { authorization: `Bearer ${server.token}` },
        signal: controller.signal,
      });
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      for await (const chunk of response.body as ReadableStream<Uint8Array>)
        text += Buffer.from(chunk).toString('utf8');
    } catch {
      // aborted on purpose
    }
    expect(text).toContain(': ping');
  });
});
