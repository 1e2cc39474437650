import type { ConversationMessage } from '@youyou/contracts';
import {
  echoReply,
  fakeTextReply,
  lastUserText,
  type FakeReply,
  type RecordedRequest,
} from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTENT_GATE_SYSTEM_PROMPT } from '../src/extensions/index.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { installExtension } from './support/extensions.ts';
import { waitingCard } from './support/hitl.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

/** The system message of a chat request: which task the server asked the model for. */
function systemOf(request: RecordedRequest): string {
  const messages = (request.body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
  const system = messages.find((message) => message.role === 'system')?.content;
  return typeof system === 'string' ? system : JSON.stringify(system ?? '');
}

const gating = (request: RecordedRequest): boolean =>
  systemOf(request).includes(INTENT_GATE_SYSTEM_PROMPT.split('\n')[0] ?? '');

/**
 * The fake model by task: the intent gate's question is answered as a model would (Lisbon's
 * forecast is the weather intent, anything else none); every chat request is echoed.
 */
function replyByTask(request: RecordedRequest): FakeReply {
  if (gating(request)) {
    const text = lastUserText(request.body) ?? '';
    return fakeTextReply(
      text.includes('Lisbon')
        ? '{"intent": "weather", "slots": {"city": "Lisbon"}}'
        : '{"intent": null, "slots": {}}',
    );
  }
  return echoReply(request);
}

function typedText(messages: readonly ConversationMessage[]): unknown {
  return messages.at(-2)?.parts[0];
}

describe.each(DATABASE_KINDS)('intents on ordinary messages on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database, fake: { fallback: replyByTask } });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  /** A titled conversation (no title request) and one message in it. */
  async function send(text: string) {
    const { id } = await server.call<{ id: string }>('POST', '/api/conversations', { title: 'Trip' });
    const sent = await server.call<{ run: { id: string } }>('POST', `/api/conversations/${id}/messages`, {
      text,
    });
    return { conversationId: id, runId: sent.run.id, view: () => server.settled(id, sent.run.id) };
  }

  const chatRequests = (): RecordedRequest[] =>
    server.fake.chatRequests.filter((request) => !gating(request));

  it('with no extension installed an ordinary message goes to the model as typed, with no intent catalog (T0)', async () => {
    const { view } = await send('give me a weather report for Oslo');
    await view();
    const request = chatRequests().at(-1);
    expect(lastUserText(request?.body)).toBe('give me a weather report for Oslo');
    expect(systemOf(request as RecordedRequest)).not.toContain('Installed intents');
    await installExtension(server);
  });

  it("an ordinary message an installed intent's rules recognise reaches the model as the intent's request; the conversation keeps what was typed", async () => {
    const { view } = await send('give me a weather report for Oslo');
    expect(typedText((await view()).messages)).toMatchObject({
      type: 'text',
      text: 'give me a weather report for Oslo',
    });
    const request = chatRequests().at(-1);
    expect(lastUserText(request?.body)).toContain(
      '(The intent “Weather report for a city” of extension:example: run the workflow “City weather report” (call workflow_city_report) with city = Oslo.)',
    );
    // The chat model is told the catalog too, so it can start an intent the rules miss.
    expect(systemOf(request as RecordedRequest)).toContain(
      '- weather (extension:example): Weather report for a city; call the tool workflow_city_report.',
    );
  });

  it('the required slots an ordinary message leaves out are asked on one HITL form card, and the answer fills the request', async () => {
    const before = chatRequests().length;
    const { conversationId, view } = await send('天气报告');
    const { card } = await waitingCard(server, conversationId);
    expect(card).toMatchObject({
      kind: 'form',
      fields: [{ id: 'city', type: 'text', label: 'Which city? / 哪个城市？', required: true }],
    });
    // The model has not been asked yet: the card comes first.
    expect(chatRequests().length).toBe(before);
    await server.call('POST', `/api/conversations/${conversationId}/cards/${card.id}/answer`, {
      answer: { type: 'form', values: { city: 'Bergen' } },
    });
    const messages = (await view()).messages;
    expect(typedText(messages)).toMatchObject({ type: 'text', text: '天气报告' });
    expect(lastUserText(chatRequests().at(-1)?.body)).toContain('with city = Bergen');
  });

  it('with the intent gate off (the default) a message the rules miss goes as typed and the lightweight model is not asked', async () => {
    await server.server.services.settings.set('user', '', 'models.lightweight', 'fake/fake-model');
    try {
      const { view } = await send('Is it going to rain in Lisbon tomorrow?');
      await view();
      expect(server.fake.chatRequests.filter(gating)).toEqual([]);
      expect(lastUserText(chatRequests().at(-1)?.body)).toBe('Is it going to rain in Lisbon tomorrow?');
    } finally {
      await server.server.services.settings.remove('user', '', 'models.lightweight');
    }
  });

  it('with the intent gate on, the lightweight model reads the intent catalog and recognises a message the rules miss', async () => {
    await server.server.services.settings.set('user', '', 'models.lightweight', 'fake/fake-model');
    await server.server.services.settings.set('user', '', 'models.intent_gate', true);
    try {
      const { view } = await send('Is it going to rain in Lisbon tomorrow?');
      await view();
      const asked = server.fake.chatRequests.filter(gating).at(-1);
      expect(systemOf(asked as RecordedRequest)).toContain('Installed intents');
      expect(systemOf(asked as RecordedRequest)).toContain('Slots: city: Which city?');
      expect(lastUserText(asked?.body)).toBe("The user's message: Is it going to rain in Lisbon tomorrow?");
      expect(lastUserText(chatRequests().at(-1)?.body)).toContain(
        'call workflow_city_report) with city = Lisbon.',
      );
      // The model says none: the message goes as typed.
      const { view: plain } = await send('Tell me a joke');
      await plain();
      expect(lastUserText(chatRequests().at(-1)?.body)).toBe('Tell me a joke');
    } finally {
      await server.server.services.settings.remove('user', '', 'models.intent_gate');
      await server.server.services.settings.remove('user', '', 'models.lightweight');
    }
  });
});
