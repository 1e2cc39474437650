import type { ToolHandler } from '@youyou/agent';
import type { ConversationMessage, UiPanel } from '@youyou/contracts';
import { fakeAskUserReply, fakeTextReply, fakeToolCallReply } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { waitingCard } from './support/hitl.ts';
import { sendFirstMessage, startTestServer, type TestServer } from './support/test-server.ts';

const WEATHER_PANEL: UiPanel = {
  id: 'weather.today',
  source: 'extension:weather',
  title: { en: 'Weather', 'zh-CN': '天气' },
  schema: {
    version: 1,
    data: { city: 'Oslo' },
    root: {
      component: 'Column',
      children: [
        { component: 'Text', text: { path: '/city' }, variant: 'h3' },
        {
          component: 'Button',
          label: 'Refresh',
          action: { tool: 'weather_lookup', arguments: { city: { path: '/city' } } },
        },
      ],
    },
  },
};

const calls: Record<string, unknown>[] = [];
const lookup: ToolHandler = {
  name: 'weather_lookup',
  description: 'Looks up the weather of a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string', minLength: 1 } },
    required: ['city'],
    additionalProperties: false,
  },
  mutating: false,
  execute: ({ arguments: input }) => {
    calls.push({ ...input });
    return {
      content: `Sunny in ${String(input['city'])}`,
      metadata: {
        ui_schema: { version: 1, root: { component: 'Text', text: `Sunny in ${String(input['city'])}` } },
      },
    };
  },
};
const book: ToolHandler = {
  name: 'weather_alert_subscribe',
  description: 'Subscribes to weather alerts.',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
  mutating: true,
  execute: ({ arguments: input }) => ({ content: `Subscribed to ${String(input['city'])}` }),
};

describe.each(DATABASE_KINDS)('UI surfaces on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;
  let unregister: () => void = () => {};

  beforeAll(async () => {
    calls.length = 0;
    database = await createTestDatabase(kind);
    server = await startTestServer({ database, server: { mutatingToolPolicy: 'confirm' } });
  });

  afterAll(async () => {
    unregister();
    await server?.close();
    await database?.drop();
  });

  const action = (body: Record<string, unknown>) =>
    server.request<{
      output?: string;
      is_error?: boolean;
      schema?: unknown;
      error?: { code: string; details?: Record<string, unknown> };
    }>('POST', '/api/extensions/actions', {
      body: { source: 'extension:weather', surface: { kind: 'panel', id: 'weather.today' }, ...body },
    });

  it('lists no panels when no extension provides any (the T0 baseline)', async () => {
    expect(await server.call('GET', '/api/extensions/panels')).toEqual({ panels: [] });
  });

  it("lists a registered source's panels with their source, and forgets them when it is removed", async () => {
    const { uiSurfaces } = server.server.services;
    const remove = uiSurfaces.register({ source: 'extension:weather', panels: () => [WEATHER_PANEL] });
    expect(await server.call('GET', '/api/extensions/panels')).toEqual({ panels: [WEATHER_PANEL] });
    remove();
    expect(await server.call('GET', '/api/extensions/panels')).toEqual({ panels: [] });
  });

  it('runs a declared read-only tool with the arguments the button read, and returns its output and new document', async () => {
    const { uiSurfaces, catalog } = server.server.services;
    catalog.remember(lookup, 'programmatic');
    catalog.remember(book, 'programmatic');
    unregister = uiSurfaces.register({
      source: 'extension:weather',
      panels: () => [WEATHER_PANEL],
      tool: (name) => [lookup, book].find((tool) => tool.name === name),
    });
    const response = await action({ action: { tool: 'weather_lookup', arguments: { city: 'Oslo' } } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      output: 'Sunny in Oslo',
      is_error: false,
      schema: { version: 1, root: { component: 'Text', text: 'Sunny in Oslo' } },
    });
    expect(calls).toEqual([{ city: 'Oslo' }]);
  });

  it('asks for confirmation before a mutating tool runs, and runs it once confirmed', async () => {
    const first = await action({ action: { tool: 'weather_alert_subscribe', arguments: { city: 'Oslo' } } });
    expect(first.status).toBe(409);
    expect(first.body.error).toMatchObject({
      code: 'ACTION_CONFIRMATION_REQUIRED',
      details: {
        tool: 'weather_alert_subscribe',
        mutating: true,
        arguments: [{ name: 'city', value: 'Oslo' }],
      },
    });
    const confirmed = await action({
      action: { tool: 'weather_alert_subscribe', arguments: { city: 'Oslo' } },
      confirmed: true,
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.output).toBe('Subscribed to Oslo');
  });

  it('refuses a tool the user turned off, one the source does not declare, a removed source and bad arguments', async () => {
    await server.call('PUT', '/api/tools/weather_alert_subscribe', { enabled: false });
    const denied = await action({ action: { tool: 'weather_alert_subscribe' }, confirmed: true });
    expect([denied.status, denied.body.error?.code]).toEqual([403, 'ACTION_DENIED']);
    await server.call('PUT', '/api/tools/weather_alert_subscribe', { enabled: null });

    const undeclared = await action({ action: { tool: 'read_file', arguments: { path: '/etc/passwd' } } });
    expect([undeclared.status, undeclared.body.error?.code]).toEqual([404, 'ACTION_NOT_DECLARED']);
    expect(undeclared.body.error?.details).toMatchObject({ source_registered: true, tool: 'read_file' });

    const removed = await action({
      source: 'extension:gone',
      action: { tool: 'weather_lookup', arguments: { city: 'x' } },
    });
    expect(removed.body.error).toMatchObject({
      code: 'ACTION_NOT_DECLARED',
      details: { source_registered: false },
    });

    const invalid = await action({ action: { tool: 'weather_lookup', arguments: { city: '' } } });
    expect([invalid.status, invalid.body.error?.code]).toEqual([400, 'INVALID_INPUT']);
    expect(invalid.body.error?.details?.['problems']).toEqual([
      { path: 'city', message: expect.any(String) },
    ]);

    const command = await action({ action: { command: 'weather.report' } });
    expect([command.status, command.body.error?.code]).toEqual([404, 'ACTION_NOT_DECLARED']);
    expect(calls).toHaveLength(1);
    calls.length = 0;
  });

  it("a panel's buttons pressed outside any conversation are in the tool audit with their source, the user as actor, the action and its outcome", async () => {
    const ran = await action({ action: { tool: 'weather_lookup', arguments: { city: 'Tromsø' } } });
    expect(ran.status).toBe(200);
    await server.call('PUT', '/api/tools/weather_alert_subscribe', { enabled: false });
    const denied = await action({
      action: { tool: 'weather_alert_subscribe', arguments: { city: 'Tromsø' } },
    });
    expect(denied.body.error?.code).toBe('ACTION_DENIED');
    await server.call('PUT', '/api/tools/weather_alert_subscribe', { enabled: null });
    const { calls: audited } = await server.call<{ calls: Record<string, unknown>[] }>(
      'GET',
      '/api/tool-calls?source=extension:weather',
    );
    expect(audited.slice(0, 2)).toEqual([
      expect.objectContaining({
        tool_name: 'weather_alert_subscribe',
        conversation_id: null,
        run_id: 'ui:panel:weather.today',
        source: 'extension:weather',
        actor: 'user',
        outcome: 'denied',
        error_code: 'ACTION_DENIED',
        decided_by: 'settings',
      }),
      expect.objectContaining({
        tool_name: 'weather_lookup',
        conversation_id: null,
        project_id: null,
        run_id: 'ui:panel:weather.today',
        arguments_summary: 'city="Tromsø"',
        source: 'extension:weather',
        actor: 'user',
        outcome: 'success',
        policy: 'auto',
        started_at: expect.any(String),
      }),
    ]);
    calls.length = 0;
  });

  it("a card's tool call is written to its conversation's tool audit; a card of a missing conversation is refused", async () => {
    server.fake.push(fakeTextReply('Hi.'));
    const { conversationId, runId } = await sendFirstMessage(server, 'Hello');
    await server.settled(conversationId, runId);
    const response = await action({
      surface: { kind: 'card', id: 'k1' },
      conversation_id: conversationId,
      action: { tool: 'weather_lookup', arguments: { city: 'Bergen' } },
    });
    expect(response.status).toBe(200);
    const { calls: audited } = await server.call<{ calls: Record<string, unknown>[] }>(
      'GET',
      `/api/conversations/${conversationId}/tool-calls`,
    );
    expect(audited).toEqual([
      expect.objectContaining({
        tool_name: 'weather_lookup',
        run_id: 'ui:card:k1',
        arguments_summary: 'city="Bergen"',
        outcome: 'success',
        policy: 'auto',
        decided_by: 'policy',
      }),
    ]);
    // "Allow for this conversation" given on a confirmation card covers the conversation's cards.
    const needsConfirmation = await action({
      surface: { kind: 'card', id: 'k1' },
      conversation_id: conversationId,
      action: { tool: 'weather_alert_subscribe', arguments: { city: 'Bergen' } },
    });
    expect(needsConfirmation.body.error?.code).toBe('ACTION_CONFIRMATION_REQUIRED');
    await server.server.services.grants.add(conversationId, 'weather_alert_subscribe', null);
    const granted = await action({
      surface: { kind: 'card', id: 'k1' },
      conversation_id: conversationId,
      action: { tool: 'weather_alert_subscribe', arguments: { city: 'Bergen' } },
    });
    expect(granted.status).toBe(200);
    const { calls: after } = await server.call<{ calls: Record<string, unknown>[] }>(
      'GET',
      `/api/conversations/${conversationId}/tool-calls`,
    );
    expect(after[0]).toMatchObject({
      tool_name: 'weather_alert_subscribe',
      decided_by: 'conversation_grant',
    });
    const missing = await action({
      surface: { kind: 'card', id: 'k1' },
      conversation_id: 'no-such-conversation',
      action: { tool: 'weather_lookup', arguments: { city: 'Bergen' } },
    });
    expect([missing.status, missing.body.error?.code]).toEqual([404, 'NOT_FOUND']);
    calls.length = 0;
  });

  it('show_card puts a card part into the answer, and a document outside the vocabulary is not shown', async () => {
    const schema = {
      version: 1,
      root: { component: 'KeyValue', items: [{ label: 'Files', value: '12' }] },
    };
    server.fake.push(fakeToolCallReply('show_card', { title: 'Summary', schema }));
    server.fake.push(
      fakeToolCallReply('show_card', { schema: { version: 1, root: { component: 'Video', url: 'x' } } }),
    );
    server.fake.push(fakeTextReply('Done.'));
    const { conversationId, runId } = await sendFirstMessage(server, 'Summarise the folder');
    const view = await server.settled(conversationId, runId);
    const parts = (view.messages[1] as ConversationMessage).parts;
    const cards = parts.filter((part) => part.type === 'card');
    expect(cards).toEqual([
      expect.objectContaining({
        type: 'card',
        source: 'builtin',
        title: 'Summary',
        schema,
        status: 'complete',
      }),
    ]);
    const results = parts.filter((part) => part.type === 'tool_result');
    expect(results.map((part) => part.type === 'tool_result' && part.is_error)).toEqual([false, true]);
    expect(JSON.stringify(results[1])).toContain('\\"Video\\" is not a component of this vocabulary');
    const markdown = await server.request<string>(
      'GET',
      `/api/conversations/${conversationId}/export?format=markdown`,
    );
    expect(markdown.body).toContain('<details><summary>Card: Summary (builtin)</summary>');
    expect(markdown.body).toContain('"component": "KeyValue"');
  });

  it('a form card refuses a value that misses its pattern and takes one that fits', async () => {
    server.fake.push(
      fakeAskUserReply({
        question: 'Which ticket?',
        kind: 'form',
        fields: [
          {
            id: 'ticket',
            type: 'text',
            label: 'Ticket',
            required: true,
            pattern: '[A-Z]+-[0-9]+',
            patternMessage: 'like ABC-12',
          },
        ],
      }),
    );
    const { conversationId, runId } = await sendFirstMessage(server, 'File it');
    const card = await waitingCard(server, conversationId);
    const answer = (ticket: string) =>
      server.request<{ error?: { code: string; details?: Record<string, unknown> } }>(
        'POST',
        `/api/conversations/${conversationId}/cards/${card.card.id}/answer`,
        { body: { answer: { type: 'form', values: { ticket } } } },
      );
    const refused = await answer('abc');
    expect([refused.status, refused.body.error?.code]).toEqual([422, 'INVALID_ANSWER']);
    expect(JSON.stringify(refused.body.error)).toContain('like ABC-12');
    expect((await answer('ABC-12')).status).toBe(200);
    const view = await server.settled(conversationId, runId);
    expect(JSON.stringify(view.messages[1]?.parts)).toContain('ABC-12');
  });
});
