import { fakeTextReply } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationProjection, createWorkbenchClient, readConversationEvents } from '@youyou/client';
import { createTestDatabase, type TestDatabase } from './support/databases.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

describe('the OpenAPI document and the typed client', () => {
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    server = await startTestServer({ database });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('/api/openapi.json is OpenAPI 3.1 and documents every route with its error body', async () => {
    const document = await server.call<{
      openapi: string;
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
    }>('GET', '/api/openapi.json');
    expect(document.openapi).toBe('3.1.0');
    const routes = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(routes).toEqual(
      expect.arrayContaining([
        'GET /api/projects',
        'POST /api/projects',
        'PATCH /api/projects/{id}',
        'DELETE /api/projects/{id}',
        'GET /api/conversations',
        'POST /api/conversations',
        'GET /api/conversations/{id}',
        'PATCH /api/conversations/{id}',
        'DELETE /api/conversations/{id}',
        'POST /api/conversations/{id}/messages',
        'POST /api/conversations/{id}/messages/{message_id}/regenerate',
        'POST /api/conversations/{id}/branch',
        'GET /api/conversations/{id}/events',
        'GET /api/conversations/{id}/event-log',
        'GET /api/runs/{id}',
        'POST /api/runs/{id}/cancel',
        'GET /api/providers',
        'POST /api/providers',
        'POST /api/providers/{id}/test',
        'GET /api/models',
        'GET /api/components',
        'POST /api/components',
        'PATCH /api/components/{kind}/{name}',
        'POST /api/uploads',
        'GET /api/uploads/{id}/content',
        'GET /api/health',
        'GET /api/usage',
        'GET /api/runs/{id}/replay',
        'GET /api/setup-bundle',
        'POST /api/setup-bundle/preview',
        'POST /api/setup-bundle/import',
      ]),
    );
    for (const methods of Object.values(document.paths)) {
      for (const operation of Object.values(methods))
        expect(Object.keys(operation.responses)).toContain('401');
    }
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['Error', 'ConversationView', 'Message', 'MessagePart', 'Run', 'Event']),
    );
    expect(document.components.securitySchemes).toHaveProperty('bearer');
  });

  it('the typed client drives a conversation, and its event reader and projection end where the Query is', async () => {
    const client = createWorkbenchClient({ baseUrl: server.url, token: server.token });
    const conversation = await client.createConversation({ title: 'Typed' });
    const controller = new AbortController();
    const mirror = new ConversationProjection();
    server.fake.push(fakeTextReply('typed ', 'answer'));
    const reading = (async () => {
      for await (const event of readConversationEvents({
        baseUrl: server.url,
        conversationId: conversation.id,
        after: 0,
        token: server.token,
        signal: controller.signal,
      })) {
        mirror.apply(event);
        if (event.type === 'run.completed') return;
      }
    })();
    const sent = await client.sendMessage(conversation.id, { text: 'Hello through the typed client' });
    expect(sent.run.conversation_id).toBe(conversation.id);
    await reading;
    controller.abort();
    const view = await client.getConversation(conversation.id);
    expect(view.messages.map(({ siblings: _siblings, ...message }) => message)).toEqual(mirror.messages());
    expect(await client.health()).toMatchObject({ status: 'ok', database: 'sqlite' });
    expect((await client.getRun(sent.run.id)).status).toBe('completed');
  });

  it('the typed client reports a failed call with the server’s machine code', async () => {
    const client = createWorkbenchClient({ baseUrl: server.url, token: server.token });
    await expect(client.getConversation('no-such-conversation')).rejects.toMatchObject({
      name: 'ApiError',
      code: 'NOT_FOUND',
      status: 404,
    });
    const stranger = createWorkbenchClient({ baseUrl: server.url, token: 'wrong' });
    await expect(stranger.listProjects()).rejects.toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
  });

  it('usage is summed per run by day, model, conversation and project', async () => {
    const byModel = await server.call<{ totals: { key: string; runs: number; output_tokens: number }[] }>(
      'GET',
      '/api/usage?group_by=model',
    );
    expect(byModel.totals).toContainEqual(expect.objectContaining({ key: 'fake/fake-model' }));
    expect(byModel.totals[0]?.runs).toBeGreaterThan(0);
  });

  it('models, the default model, preferences and provider checks', async () => {
    const models = await server.call<{
      models: { id: string; provider_name: string }[];
      default_model_id: string;
    }>('GET', '/api/models');
    expect(models).toMatchObject({
      default_model_id: 'fake/fake-model',
      models: [{ id: 'fake/fake-model', provider_name: 'fake' }],
    });
    await server.call('PUT', '/api/models/default', { model_id: 'fake/fake-model' });
    // The test server turns the lightweight fallback off (no extra model requests in scripted runs).
    expect(await server.call('GET', '/api/settings')).toEqual({
      'models.lightweight_fallback': false,
      'models.chat': 'fake/fake-model',
    });
    const schema = await server.call<{ settings: { key: string; effect: string }[] }>(
      'GET',
      '/api/settings/schema',
    );
    expect(schema.settings).toContainEqual(
      expect.objectContaining({ key: 'models.chat', effect: 'new-run' }),
    );
    await server.call('PUT', '/api/preferences', { preferences: { theme: 'dark', density: 'compact' } });
    expect(await server.call('GET', '/api/preferences')).toEqual({
      preferences: { theme: 'dark', density: 'compact' },
    });
    const provider = (await server.call<{ providers: { id: string }[] }>('GET', '/api/providers'))
      .providers[0];
    const tested = await server.call<{ ok: boolean; models: string[]; latency_ms: number }>(
      'POST',
      `/api/providers/${provider?.id ?? ''}/test`,
    );
    expect(tested).toMatchObject({ ok: true, models: ['fake/fake-model'] });
    const unsaved = await server.call<{ ok: boolean }>('POST', '/api/providers/test', {
      kind: 'openai-compatible',
      base_url: 'http://127.0.0.1:9/v1',
    });
    expect(unsaved.ok).toBe(false);
  });
});
