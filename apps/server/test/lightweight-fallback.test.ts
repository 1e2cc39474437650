import {
  echoReply,
  fakeAskUserReply,
  fakeTextReply,
  lastUserText,
  type FakeReply,
  type RecordedRequest,
} from '@youyou/testing';
import type { HitlCardView } from '@youyou/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TITLE_SYSTEM_PROMPT } from '../src/models/conversation-title.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { FORMAT_CARD, waitingCard } from './support/hitl.ts';
import { sendFirstMessage, startTestServer, type TestServer } from './support/test-server.ts';

/** The system message of a chat request: which task the server asked the model for. */
function systemOf(request: RecordedRequest): string {
  const messages = (request.body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
  const system = messages.find((message) => message.role === 'system')?.content;
  return typeof system === 'string' ? system : JSON.stringify(system ?? '');
}
const titling = (request: RecordedRequest): boolean => systemOf(request).includes(TITLE_SYSTEM_PROMPT);
const classifying = (request: RecordedRequest): boolean =>
  systemOf(request).includes("You route a user's free-text reply");

/**
 * The chat model's replies by task, whatever order the server asks in: a title, a routing
 * decision that the typed text is a new request, the card for "Write the report", else an echo.
 */
function replyByTask(request: RecordedRequest): FakeReply {
  if (titling(request)) return fakeTextReply('Parser explained');
  if (classifying(request)) return fakeTextReply('{"path": "new_request", "reason": "asks the time"}');
  const messages = (request.body as { messages?: { role: string }[] }).messages ?? [];
  // Asked once: after the card's tool result the turn ends with an echo.
  if (messages.at(-1)?.role === 'user' && lastUserText(request.body) === 'Write the report')
    return fakeAskUserReply({ ...FORMAT_CARD });
  return echoReply(request);
}

describe.each(DATABASE_KINDS)('lightweight tasks without a lightweight model on %s', (kind) => {
  let database: TestDatabase | undefined;
  let server: TestServer | undefined;

  afterEach(async () => {
    await server?.close();
    await database?.drop();
    server = undefined;
    database = undefined;
  });

  async function start(lightweightFallback: boolean): Promise<TestServer> {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database, lightweightFallback, fake: { fallback: replyByTask } });
    return server;
  }

  it('with the fallback on, the chat model titles a new conversation', async () => {
    const running = await start(true);
    const { conversationId } = await sendFirstMessage(running, 'How does a parser work?');
    await vi.waitFor(
      async () => {
        const view = await running.call<{ conversation: { title: string } }>(
          'GET',
          `/api/conversations/${conversationId}`,
        );
        expect(view.conversation.title).toBe('Parser explained');
      },
      { timeout: 15_000, interval: 20 },
    );
    const title = running.fake.requests.find(titling);
    expect((title?.body as { model?: string }).model).toBe('fake-model');
  });

  it('with the fallback on, "what time is it in Tokyo?" typed while a card waits is a new request, not its answer', async () => {
    const running = await start(true);
    const { conversationId, runId } = await sendFirstMessage(running, 'Write the report');
    const card = await waitingCard(running, conversationId);
    const answered = await running.request<{ card: HitlCardView; new_run_id?: string }>(
      'POST',
      `/api/conversations/${conversationId}/cards/${card.card.id}/answer`,
      { body: { answer: { type: 'text', text: 'what time is it in Tokyo?' } } },
    );
    expect(answered.body.card.resolution).toMatchObject({
      route: { path: 'new_request', by: 'model', reason: 'asks the time' },
    });
    expect((await running.call<{ status: string }>('GET', `/api/runs/${runId}`)).status).toBe('cancelled');
    await running.settled(conversationId, answered.body.new_run_id as string);
  });

  it('with the fallback off, no title or classification request reaches the chat model', async () => {
    const running = await start(false);
    const { conversationId, runId } = await sendFirstMessage(running, 'Write the report');
    const card = await waitingCard(running, conversationId);
    const answered = await running.request<{ card: HitlCardView }>(
      'POST',
      `/api/conversations/${conversationId}/cards/${card.card.id}/answer`,
      { body: { answer: { type: 'text', text: 'what time is it in Tokyo?' } } },
    );
    expect(answered.body.card.resolution).not.toMatchObject({ route: { by: 'model' } });
    await running.settled(conversationId, runId);
    expect(running.fake.requests.filter((request) => titling(request) || classifying(request))).toEqual([]);
  });
});
