import { fakeAskUserReply, fakeReplyAfterToolResult, fakeTextReply } from '@youyou/testing';
import type { HitlCardView } from '@youyou/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationMessage } from '@youyou/contracts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { FORMAT_CARD, waitingCard } from './support/hitl.ts';
import { readEvents } from './support/sse.ts';
import { sendFirstMessage, startTestServer, type TestServer } from './support/test-server.ts';

describe.each(DATABASE_KINDS)('HITL cards on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database, server: { mutatingToolPolicy: 'confirm' } });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  async function askFormat(card: object = FORMAT_CARD) {
    // The turn after the answer falls back to the fake server's echo.
    server.fake.push(fakeAskUserReply({ ...card }));
    const sent = await sendFirstMessage(server, 'Write the report');
    const waiting = await waitingCard(server, sent.conversationId);
    return { ...sent, card: waiting };
  }

  const answer = (conversationId: string, cardId: string, body: unknown) =>
    server.request<{
      card: HitlCardView;
      replayed: boolean;
      new_run_id?: string;
      error?: { code: string; details?: Record<string, unknown> };
    }>('POST', `/api/conversations/${conversationId}/cards/${cardId}/answer`, { body });

  it('ask_user shows the §4.5 card, the run waits in waiting_hitl, and the chosen option reaches the model', async () => {
    const { conversationId, runId, card } = await askFormat();
    expect(card.card).toMatchObject({
      question: '采用哪种输出格式？',
      kind: 'choice',
      allowFreeInput: true,
      timeoutSec: null,
    });
    expect(card.card.choices.map((choice) => [choice.id, choice.recommended === true])).toEqual([
      ['md', true],
      ['docx', false],
    ]);
    expect((await server.call<{ status: string }>('GET', `/api/runs/${runId}`)).status).toBe('waiting_hitl');
    // The Query shows the waiting card (a reload sees it again).
    const query = await server.call<{ messages: ConversationMessage[] }>(
      'GET',
      `/api/conversations/${conversationId}`,
    );
    const part = query.messages[1]?.parts.find((item) => item.type === 'hitl');
    expect(part).toMatchObject({ type: 'hitl', card_status: 'pending', status: 'running' });

    const answered = await answer(conversationId, card.card.id, {
      answer: { type: 'choice', choice_id: 'md' },
      client_key: 'tab-1',
    });
    expect(answered.status).toBe(200);
    expect(answered.body.card.status).toBe('answered');
    const view = await server.settled(conversationId, runId);
    expect(view.messages[1]?.status).toBe('complete');
    expect(JSON.stringify(view.messages[1]?.parts)).toContain('The user chose \\"md\\" (Markdown 文档)');
    const events = await server.call<{ events: { type: string; payload: Record<string, unknown> }[] }>(
      'GET',
      `/api/conversations/${conversationId}/event-log`,
    );
    const phases = events.events
      .filter((event) => event.type === 'run.phase')
      .map((event) => event.payload['status']);
    expect(phases).toContain('waiting_hitl');
    expect(events.events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['hitl.request', 'hitl.resolved']),
    );
  });

  it('every bad answer is a structured error; the first answer wins and a repeated client key replays it', async () => {
    const { conversationId, runId, card } = await askFormat();
    const other = await server.call<{ id: string }>('POST', '/api/conversations', {});

    const unknown = await answer(conversationId, 'no-such-card', {
      answer: { type: 'choice', choice_id: 'md' },
    });
    expect([unknown.status, unknown.body.error?.code]).toEqual([404, 'NOT_FOUND']);
    const elsewhere = await answer(other.id, card.card.id, { answer: { type: 'choice', choice_id: 'md' } });
    expect([elsewhere.status, elsewhere.body.error?.code]).toEqual([404, 'NOT_FOUND']);
    const notAnOption = await answer(conversationId, card.card.id, {
      answer: { type: 'choice', choice_id: 'pdf' },
    });
    expect([notAnOption.status, notAnOption.body.error?.code]).toEqual([422, 'INVALID_ANSWER']);
    expect(notAnOption.body.error?.details).toMatchObject({ choice_id: 'pdf', choices: ['md', 'docx'] });
    const wrongKind = await answer(conversationId, card.card.id, {
      answer: { type: 'confirm', confirmed: true },
    });
    expect([wrongKind.status, wrongKind.body.error?.code]).toEqual([422, 'INVALID_ANSWER']);
    const formOnChoice = await answer(conversationId, card.card.id, { answer: { type: 'form', values: {} } });
    expect(formOnChoice.status).toBe(422);
    const malformed = await answer(conversationId, card.card.id, { answer: { type: 'choice' } });
    expect([malformed.status, malformed.body.error?.code]).toEqual([400, 'INVALID_INPUT']);
    const unknownType = await answer(conversationId, card.card.id, { answer: { type: 'vote', value: 1 } });
    expect(unknownType.status).toBe(400);
    // Nothing was lost: the card still waits.
    expect((await waitingCard(server, conversationId)).card.id).toBe(card.card.id);

    const first = await answer(conversationId, card.card.id, {
      answer: { type: 'choice', choice_id: 'docx' },
      client_key: 'k-1',
    });
    expect(first.status).toBe(200);
    const replay = await answer(conversationId, card.card.id, {
      answer: { type: 'choice', choice_id: 'docx' },
      client_key: 'k-1',
    });
    expect([replay.status, replay.body.replayed]).toEqual([200, true]);
    const second = await answer(conversationId, card.card.id, {
      answer: { type: 'choice', choice_id: 'md' },
      client_key: 'k-2',
    });
    expect([second.status, second.body.error?.code]).toEqual([409, 'CARD_ALREADY_RESOLVED']);
    expect(second.body.error?.details).toMatchObject({
      status: 'answered',
      resolution: { answer: { type: 'choice', choice_id: 'docx' } },
    });
    await server.settled(conversationId, runId);
  });

  it('form answers are checked against the form fields', async () => {
    const { conversationId, runId, card } = await askFormat({
      question: 'Report settings',
      kind: 'form',
      fields: [
        { id: 'pages', type: 'number', label: 'Pages', min: 1, max: 50, required: true },
        {
          id: 'tone',
          type: 'select',
          label: 'Tone',
          options: [
            { value: 'formal', label: 'Formal' },
            { value: 'casual', label: 'Casual' },
          ],
        },
        { id: 'due', type: 'date', label: 'Due' },
      ],
    });
    const bad = await answer(conversationId, card.card.id, {
      answer: { type: 'form', values: { pages: 0, tone: 'angry', due: 'tomorrow', extra: 'x' } },
    });
    expect([bad.status, bad.body.error?.code]).toEqual([422, 'INVALID_ANSWER']);
    const paths = (bad.body.error?.details?.['problems'] as { path: string }[])
      .map((problem) => problem.path)
      .sort();
    expect(paths).toEqual(['due', 'extra', 'pages', 'tone']);
    const missing = await answer(conversationId, card.card.id, {
      answer: { type: 'form', values: { tone: 'formal' } },
    });
    expect(missing.status).toBe(422);
    const good = await answer(conversationId, card.card.id, {
      answer: { type: 'form', values: { pages: 12, tone: 'formal', due: '2026-12-24' } },
    });
    expect(good.status).toBe(200);
    await server.settled(conversationId, runId);
    expect(JSON.stringify(server.fake.chatRequests.at(-1)?.body)).toContain('\\"pages\\":12');
  });

  it('a malformed card is not shown: the model is told what to fix and can try again', async () => {
    server.fake.push(
      fakeAskUserReply({
        question: 'Which?',
        kind: 'choice',
        choices: [
          { id: 'a', label: 'A', recommended: true, impact: 'does A' },
          { id: 'a', label: 'B', recommended: true },
        ],
      }),
      fakeReplyAfterToolResult((result) => fakeTextReply(`Fixing: ${result}`)),
    );
    const { conversationId, runId } = await sendFirstMessage(server, 'Ask me badly');
    const view = await server.settled(conversationId, runId);
    const result = view.messages[1]?.parts.find((part) => part.type === 'tool_result');
    expect(result).toMatchObject({ is_error: true });
    const output = result?.type === 'tool_result' ? result.output : '';
    expect(output).toContain('The card was not shown');
    expect(output).toContain('every choice needs an impact');
    expect(output).toContain('duplicate choice id "a"');
    expect(output).toContain('at most one choice may be recommended');
    expect(
      (await server.call<{ cards: unknown[] }>('GET', `/api/conversations/${conversationId}/cards`)).cards,
    ).toEqual([]);
  });

  it('free text is routed by the rules: ordinals and labels in Chinese and English pick an option', async () => {
    for (const [text, expected] of [
      ['第二个', 'docx'],
      ['用 Word 吧', 'docx'],
      ['the first one', 'md'],
      ['Markdown', 'md'],
    ] as const) {
      const { conversationId, runId, card } = await askFormat();
      const routed = await answer(conversationId, card.card.id, { answer: { type: 'text', text } });
      expect(routed.status).toBe(200);
      expect(routed.body.card.resolution).toMatchObject({
        status: 'answered',
        answer: { type: 'choice', choice_id: expected },
        free_text: text,
        route: { path: 'choice', by: 'rule' },
      });
      await server.settled(conversationId, runId);
      expect(JSON.stringify(server.fake.chatRequests.at(-1)?.body)).toContain(
        `The user chose \\"${expected}\\"`,
      );
    }
  });

  it('free text that is no pick goes to the model as the answer when no lightweight model is configured', async () => {
    const { conversationId, runId, card } = await askFormat();
    const routed = await answer(conversationId, card.card.id, {
      answer: { type: 'text', text: '两种格式有什么区别？' },
    });
    expect(routed.body.card.resolution).toMatchObject({
      route: { path: 'answer', by: 'default' },
      answer: { type: 'text' },
    });
    await server.settled(conversationId, runId);
    expect(JSON.stringify(server.fake.chatRequests.at(-1)?.body)).toContain('两种格式有什么区别？');
  });

  it('a /command supersedes the waiting run: it ends cancelled (superseded) and the text starts a new turn', async () => {
    const { conversationId, runId, card } = await askFormat();
    const routed = await answer(conversationId, card.card.id, {
      answer: { type: 'text', text: '/new-topic tell me a joke' },
    });
    expect(routed.status).toBe(200);
    expect(routed.body.card.status).toBe('superseded');
    expect(routed.body.card.resolution).toMatchObject({ route: { path: 'new_request', by: 'rule' } });
    const newRunId = routed.body.new_run_id as string;
    expect(newRunId).toBeDefined();
    const old = await server.call<{ status: string }>('GET', `/api/runs/${runId}`);
    expect(old.status).toBe('cancelled');
    // The new turn runs the command as the composer would (here: an unknown skill, which it reports).
    const view = await server.settled(conversationId, newRunId);
    expect(view.messages.at(-2)?.parts[0]).toMatchObject({ type: 'text', text: '/new-topic tell me a joke' });
    expect(view.messages.at(-1)?.run_id).toBe(newRunId);
    const events = await server.call<{
      events: { type: string; run_id: string; payload: Record<string, unknown> }[];
    }>('GET', `/api/conversations/${conversationId}/event-log`);
    expect(
      events.events.find((event) => event.type === 'run.cancelled' && event.run_id === runId)?.payload,
    ).toMatchObject({
      reason: 'superseded',
    });
  });

  it('with a lightweight model configured, text the rules do not decide is classified by it', async () => {
    await server.server.services.settings.set('user', '', 'models.lightweight', 'fake/fake-model');
    try {
      // A titled conversation: with a lightweight model, untitled ones get their title from it too.
      server.fake.push(fakeAskUserReply({ ...FORMAT_CARD }));
      const titled = await server.call<{ id: string }>('POST', '/api/conversations', { title: 'Formats' });
      const sent = await server.call<{ run: { id: string } }>(
        'POST',
        `/api/conversations/${titled.id}/messages`,
        {
          text: 'Write the report',
        },
      );
      const conversationId = titled.id;
      const runId = sent.run.id;
      const card = await waitingCard(server, conversationId);
      server.fake.push(
        fakeTextReply('{"path": "new_request", "reason": "asks for something else"}'),
        fakeTextReply('Sure, a poem.'),
      );
      const routed = await answer(conversationId, card.card.id, {
        answer: { type: 'text', text: 'actually write me a poem instead' },
      });
      expect(routed.body.card.resolution).toMatchObject({
        route: { path: 'new_request', by: 'model', reason: 'asks for something else' },
      });
      expect((await server.call<{ status: string }>('GET', `/api/runs/${runId}`)).status).toBe('cancelled');
      await server.settled(conversationId, routed.body.new_run_id as string);
    } finally {
      await server.server.services.settings.remove('user', '', 'models.lightweight');
    }
  });

  it('cancelling the run cancels its card; a card past its timeoutSec expires and the model gets "no answer"', async () => {
    const { conversationId, runId, card } = await askFormat();
    await server.call('POST', `/api/runs/${runId}/cancel`);
    expect(
      (await server.call<HitlCardView>('GET', `/api/conversations/${conversationId}/cards/${card.card.id}`))
        .status,
    ).toBe('cancelled');
    const late = await answer(conversationId, card.card.id, { answer: { type: 'choice', choice_id: 'md' } });
    expect([late.status, late.body.error?.code]).toEqual([409, 'CARD_ALREADY_RESOLVED']);

    const timed = await askFormat({ ...FORMAT_CARD, timeoutSec: 1 });
    const view = await server.settled(timed.conversationId, timed.runId);
    const hitl = view.messages[1]?.parts.find((part) => part.type === 'hitl');
    expect(hitl).toMatchObject({ card_status: 'expired' });
    expect(JSON.stringify(server.fake.chatRequests.at(-1)?.body)).toContain('No answer');
  });

  it('a restart while a card waits marks the run interrupted and the card expired', async () => {
    const { conversationId, runId, card } = await askFormat();
    await server.restart();
    expect((await server.call<{ status: string }>('GET', `/api/runs/${runId}`)).status).toBe('interrupted');
    const after = await server.call<HitlCardView>(
      'GET',
      `/api/conversations/${conversationId}/cards/${card.card.id}`,
    );
    expect(after.status).toBe('expired');
    const query = await server.call<{ messages: ConversationMessage[] }>(
      'GET',
      `/api/conversations/${conversationId}`,
    );
    expect(query.messages[1]?.parts.find((part) => part.type === 'hitl')).toMatchObject({
      card_status: 'expired',
    });
  });

  it('hitl.request and hitl.resolved reach every subscriber of the conversation', async () => {
    server.fake.push(fakeAskUserReply({ ...FORMAT_CARD }));
    const conversation = await server.call<{ id: string }>('POST', '/api/conversations', {});
    const watching = [0, 1].map(() =>
      readEvents({
        url: server.url,
        token: server.token,
        conversationId: conversation.id,
        after: 0,
        until: (event) => event.type === 'hitl.resolved',
      }),
    );
    const sent = await server.call<{ run: { id: string } }>(
      'POST',
      `/api/conversations/${conversation.id}/messages`,
      { text: 'go' },
    );
    const card = await waitingCard(server, conversation.id);
    await answer(conversation.id, card.card.id, { answer: { type: 'choice', choice_id: 'md' } });
    for (const events of await Promise.all(watching)) {
      expect(events.find((event) => event.type === 'hitl.request')).toBeDefined();
      expect(events.at(-1)).toMatchObject({
        type: 'hitl.resolved',
        payload: { card_id: card.card.id, status: 'answered' },
      });
    }
    await server.settled(conversation.id, sent.run.id);
  });
});
