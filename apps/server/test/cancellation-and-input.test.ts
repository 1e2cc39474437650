import { INTERRUPTED_NOTE } from '@youyou/agent';
import { fakeTextReply } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationMessage } from '@youyou/contracts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { readEvents } from './support/sse.ts';
import { sendFirstMessage, startTestServer, type TestServer } from './support/test-server.ts';

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

function slowReply(pieces: number, delayMs: number) {
  return {
    type: 'stream' as const,
    steps: Array.from({ length: pieces }, (_, index) => ({ type: 'text' as const, text: `w${index} ` })),
    stepDelayMs: delayMs,
  };
}

describe.each(DATABASE_KINDS)('cancellation, uploads and skills on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('cancelling mid-stream ends the run cancelled, keeps the partial answer, and the next turn knows it was cut', async () => {
    server.fake.push(slowReply(200, 20));
    const { conversationId, runId } = await sendFirstMessage(server, 'Write a long essay');
    await readEvents({
      url: server.url,
      token: server.token,
      conversationId,
      after: 0,
      until: (event) => event.type === 'message.delta',
    });
    const cancelled = await server.call<{ status: string }>('POST', `/api/runs/${runId}/cancel`);
    expect(cancelled.status).toBe('cancelled');
    const view = await server.settled(conversationId, runId);
    const assistant = view.messages[1] as ConversationMessage;
    expect(assistant.status).toBe('cancelled');
    const text = assistant.parts.find((part) => part.type === 'text');
    expect(text).toMatchObject({ status: 'incomplete' });
    expect(text?.type === 'text' && text.text.startsWith('w0 ')).toBe(true);
    // Cancelling again changes nothing.
    expect((await server.call<{ status: string }>('POST', `/api/runs/${runId}/cancel`)).status).toBe(
      'cancelled',
    );

    server.fake.push(fakeTextReply('Fine.'));
    const next = await server.call<{ run: { id: string } }>(
      'POST',
      `/api/conversations/${conversationId}/messages`,
      {
        text: 'Never mind',
      },
    );
    await server.settled(conversationId, next.run.id);
    const request = JSON.stringify(server.fake.chatRequests.at(-1)?.body);
    expect(request).toContain('w0 ');
    expect(request).toContain(JSON.stringify(INTERRUPTED_NOTE));
  });

  it('an uploaded image reaches the model as an image, a text file as its text; the Query shows them by reference', async () => {
    const form = new FormData();
    form.set('file', new Blob([PNG], { type: 'image/png' }), 'dot.png');
    const image = await server.request<{ id: string; media_type: string; size: number }>(
      'POST',
      '/api/uploads',
      { body: form },
    );
    expect(image).toMatchObject({ status: 201, body: { media_type: 'image/png', size: PNG.length } });
    const textForm = new FormData();
    textForm.set(
      'file',
      new Blob(['# Notes\nThe secret word is pelican.\n'], { type: 'text/markdown' }),
      'notes.md',
    );
    const notes = await server.request<{ id: string }>('POST', '/api/uploads', { body: textForm });
    expect(notes.status).toBe(201);

    server.fake.push(fakeTextReply('A dot and notes.'));
    const { conversationId, runId } = await sendFirstMessage(server, 'What are these?', {
      attachments: [image.body.id, notes.body.id],
    });
    const view = await server.settled(conversationId, runId);
    expect(view.messages[1]?.status).toBe('complete');
    expect(view.messages[0]?.parts).toEqual([
      { type: 'text', text: 'What are these?', status: 'complete' },
      {
        type: 'attachment',
        upload_id: image.body.id,
        name: 'dot.png',
        media_type: 'image/png',
        size: PNG.length,
        status: 'complete',
      },
      expect.objectContaining({
        type: 'attachment',
        upload_id: notes.body.id,
        name: 'notes.md',
        media_type: 'text/markdown',
      }),
    ]);
    const request = JSON.stringify(server.fake.chatRequests.at(-1)?.body);
    expect(request).toContain('image_url');
    expect(request).toContain(PNG.toString('base64'));
    expect(request).toContain('pelican');

    const content = await fetch(`${server.url}/api/uploads/${image.body.id}/content`, {
      headers: { authorization: `Bearer ${server.token}` },
    });
    expect(content.headers.get('content-disposition')).toContain('attachment');
    expect(Buffer.from(await content.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('a skill invoked with the message puts its prompt in the model’s context', async () => {
    await server.call('POST', '/api/components', {
      kind: 'skill',
      name: 'haiku',
      layer: 'global',
      front_matter: { description: 'Answer as a haiku.' },
      body: 'Answer in exactly three lines of five, seven and five syllables.',
    });
    server.fake.push(fakeTextReply('Old pond, frog jumps in'));
    const { conversationId, runId } = await sendFirstMessage(server, 'Describe the sea', {
      skills: [{ name: 'haiku' }],
    });
    const view = await server.settled(conversationId, runId);
    expect(view.messages[0]?.parts).toContainEqual({ type: 'skill', name: 'haiku', status: 'complete' });
    expect(JSON.stringify(server.fake.chatRequests.at(-1)?.body)).toContain('five, seven and five syllables');

    server.fake.push(fakeTextReply('Waves fold into foam'));
    const typed = await server.call<{ run: { id: string } }>(
      'POST',
      `/api/conversations/${conversationId}/messages`,
      {
        text: '/haiku the moon',
      },
    );
    await server.settled(conversationId, typed.run.id);
    expect(JSON.stringify(server.fake.chatRequests.at(-1)?.body)).toContain('five, seven and five syllables');
  });

  it('an unknown skill fails the run with SKILL_NOT_FOUND shown as an error part', async () => {
    const { conversationId, runId } = await sendFirstMessage(server, 'x', {
      skills: [{ name: 'no-such-skill' }],
    });
    const view = await server.settled(conversationId, runId);
    expect(view.messages[1]).toMatchObject({ status: 'failed' });
    expect(view.messages[1]?.parts.at(-1)).toMatchObject({
      type: 'error',
      error: { code: 'SKILL_NOT_FOUND' },
    });
  });
});
