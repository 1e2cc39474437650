import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelList, Provider, SendResult } from '@youyou/contracts';
import { guessModelKind } from '../src/providers/index.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

describe('model kinds guessed from ids', () => {
  it('embedding and rerank models are never offered for chat', () => {
    expect(guessModelKind('text-embedding-3-small')).toBe('embedding');
    expect(guessModelKind('nomic-embed-text:latest')).toBe('embedding');
    expect(guessModelKind('bge-reranker-v2-m3')).toBe('rerank');
    expect(guessModelKind('qwen3:8b')).toBe('chat');
    expect(guessModelKind('gpt-4o-mini')).toBe('chat');
  });
});

describe.each(DATABASE_KINDS)('providers whose models are discovered, on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({
      database,
      provider: false,
      fake: { models: [{ id: 'fake-model' }, { id: 'fake-vision' }, { id: 'text-embedding-3-small' }] },
    });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('a provider saved with its models left empty lists what its server serves, and the picker offers them at once', async () => {
    const created = await server.call<Provider>('POST', '/api/providers', {
      name: 'local',
      kind: 'openai-compatible',
      base_url: server.fake.url,
    });
    expect(created.models.map((model) => model.id)).toEqual([
      'fake-model',
      'fake-vision',
      'text-embedding-3-small',
    ]);
    expect(created.models.every((model) => model.discovered === true)).toBe(true);
    const listing = await server.call<ModelList>('GET', '/api/models');
    // The embedding model stays on the provider but is not a chat model.
    expect(listing.models.map((model) => model.id)).toEqual(['local/fake-model', 'local/fake-vision']);
    expect(listing.default_model).toBe('local/fake-model');
  });

  it('a message sent right after saving such a provider gets an answer', async () => {
    const conversation = await server.call<{ id: string }>('POST', '/api/conversations', {});
    const sent = await server.call<SendResult>('POST', `/api/conversations/${conversation.id}/messages`, {
      text: 'Hello, discovered model',
    });
    expect(sent.run.model_id).toBe('local/fake-model');
    const query = await server.settled(conversation.id, sent.run.id);
    // The fake model echoes what it was sent.
    expect(JSON.stringify(query.messages)).toContain('Hello, discovered model');
    const run = await server.call<{ status: string }>('GET', `/api/runs/${sent.run.id}`);
    expect(run.status).toBe('completed');
  });

  it('hidden models leave the picker; a refresh keeps the user’s edits and adds new models', async () => {
    const { providers } = await server.call<{ providers: Provider[] }>('GET', '/api/providers');
    const local = providers.find((provider) => provider.name === 'local');
    if (local === undefined) throw new Error('the provider of the first test is missing');
    const edited = local.models.map((model) =>
      model.id === 'fake-vision'
        ? { ...model, hidden: true }
        : model.id === 'fake-model'
          ? { ...model, display_name: 'My model', capabilities: { ...model.capabilities, vision: true } }
          : model,
    );
    await server.call('PATCH', `/api/providers/${local.id}`, { models: edited });
    let listing = await server.call<ModelList>('GET', '/api/models');
    expect(listing.models.map((model) => model.id)).toEqual(['local/fake-model']);
    expect(listing.models[0]?.display_name).toBe('My model');
    expect(listing.models[0]?.capabilities?.vision).toBe(true);

    const refreshed = await server.call<Provider>('POST', `/api/providers/${local.id}/refresh`);
    expect(refreshed.models.find((model) => model.id === 'fake-vision')?.hidden).toBe(true);
    expect(refreshed.models.find((model) => model.id === 'fake-model')?.display_name).toBe('My model');
    listing = await server.call<ModelList>('GET', '/api/models');
    expect(listing.models.map((model) => model.id)).toEqual(['local/fake-model']);
  });

  it('a provider whose server does not answer is saved without models, and its refresh says why', async () => {
    const created = await server.call<Provider>('POST', '/api/providers', {
      name: 'down',
      kind: 'openai-compatible',
      base_url: 'http://127.0.0.1:9/v1',
    });
    expect(created.models).toEqual([]);
    const refreshed = await server.request<{ error: { code: string; message: string } }>(
      'POST',
      `/api/providers/${created.id}/refresh`,
    );
    expect(refreshed.status).toBe(502);
    expect(refreshed.body.error.code).toBe('PROVIDER_ERROR');
    expect(refreshed.body.error.message.length).toBeGreaterThan(0);
  });

  it('refreshing a provider that does not exist is a 404', async () => {
    const response = await server.request<{ error: { code: string } }>(
      'POST',
      '/api/providers/no-such-provider/refresh',
    );
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('NOT_FOUND');
  });
});
