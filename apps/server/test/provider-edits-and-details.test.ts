import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelList, Provider, ProviderTest } from '@youyou/contracts';
import { startFakeOpenAI, type FakeServer } from '@youyou/testing';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

/** A fake Ollama: its OpenAI-compatible listing has bare ids; `/api/show` says the rest. */
function fakeOllama(): Promise<FakeServer> {
  const show: Record<string, unknown> = {
    'qwen3:8b': {
      capabilities: ['completion', 'tools', 'thinking'],
      model_info: { 'general.architecture': 'qwen3', 'qwen3.context_length': 40_960 },
    },
    'llava:7b': {
      capabilities: ['completion', 'vision'],
      model_info: { 'general.architecture': 'llama', 'llama.context_length': 4_096 },
    },
    'snowflake-arctic': { capabilities: ['embedding'], model_info: {} },
  };
  const names = Object.keys(show);
  return startFakeOpenAI({
    models: names.map((id) => ({ id, object: 'model', owned_by: 'library' })),
    routes: {
      'GET /api/tags': { models: names.map((name) => ({ name, model: name })) },
      'POST /api/show': (body: unknown) => show[(body as { model?: string }).model ?? ''],
    },
    fallback: 'echo',
  });
}

describe.each(DATABASE_KINDS)('editing providers and what their servers report, on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;
  let ollama: FakeServer;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database, provider: false, fake: { apiKey: 'right-key' } });
    ollama = await fakeOllama();
  });

  afterAll(async () => {
    await ollama?.close();
    await server?.close();
    await database?.drop();
  });

  it('an Ollama provider’s models come with the context window and capabilities /api/show reports', async () => {
    const created = await server.call<Provider>('POST', '/api/providers', {
      name: 'ollama',
      kind: 'openai-compatible',
      base_url: ollama.url,
    });
    expect(
      created.models.map((model) => [model.id, model.context_window, model.capabilities, model.kind]),
    ).toEqual([
      ['qwen3:8b', 40_960, { tools: true, vision: false, reasoning: true }, 'chat'],
      ['llava:7b', 4_096, { tools: false, vision: true, reasoning: false }, 'chat'],
      ['snowflake-arctic', 32_768, { tools: false, vision: false, reasoning: false }, 'embedding'],
    ]);
    const listing = await server.call<ModelList>('GET', '/api/models');
    // The embedding model (its name does not say so, Ollama does) is not offered for chat.
    expect(
      listing.models.map((model) => [model.id, model.context_window, model.capabilities?.vision]),
    ).toEqual([
      ['ollama/qwen3:8b', 40_960, false],
      ['ollama/llava:7b', 4_096, true],
    ]);
  });

  it('a provider’s URL, key and headers can be edited; the key is never shown, the headers are sent', async () => {
    const created = await server.call<Provider>('POST', '/api/providers', {
      name: 'gateway',
      kind: 'openai-compatible',
      base_url: server.fake.url.replace(/\/v1$/, ''),
      api_key: 'wrong-key',
      models: [{ id: 'fake-model' }],
    });
    let test = await server.call<ProviderTest>('POST', `/api/providers/${created.id}/test`);
    expect(test.ok).toBe(false);
    expect(test.error?.message).toContain('Check your API key');
    expect(test.error?.message).not.toContain('wrong-key');

    const edited = await server.call<Provider>('PATCH', `/api/providers/${created.id}`, {
      base_url: server.fake.url,
      api_key: 'right-key',
      headers: { 'X-Team': 'docs' },
    });
    expect(edited).toMatchObject({
      base_url: server.fake.url,
      has_api_key: true,
      headers: { 'X-Team': 'docs' },
    });
    expect(JSON.stringify(edited)).not.toContain('right-key');
    test = await server.call<ProviderTest>('POST', `/api/providers/${created.id}/test`);
    expect(test).toMatchObject({ ok: true, models: ['gateway/fake-model'] });
    const listed = server.fake.requests.at(-1);
    expect(listed?.headers['x-team']).toBe('docs');
    expect(listed?.headers['authorization']).toBe('Bearer right-key');

    const conversation = await server.call<{ id: string }>('POST', '/api/conversations', {});
    const sent = await server.call<{ run: { id: string } }>(
      'POST',
      `/api/conversations/${conversation.id}/messages`,
      {
        text: 'Through the gateway',
        model: 'gateway/fake-model',
      },
    );
    await server.settled(conversation.id, sent.run.id);
    expect(server.fake.chatRequests.at(-1)?.headers['x-team']).toBe('docs');

    const cleared = await server.call<Provider>('PATCH', `/api/providers/${created.id}`, { headers: {} });
    expect(cleared.headers).toEqual({});
  });

  it('a header the workbench sets itself is refused', async () => {
    const response = await server.request<{ error: { code: string } }>('POST', '/api/providers', {
      body: {
        name: 'bad-headers',
        kind: 'openai-compatible',
        base_url: server.fake.url,
        headers: { 'Content-Type': 'text/plain' },
      },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_INPUT');
  });

  it('the test of a URL without /v1 asks "did you mean …/v1?", of a dead port whether the server runs', async () => {
    const root = server.fake.url.replace(/\/v1$/, '');
    const wrongUrl = await server.call<ProviderTest>('POST', '/api/providers/test', {
      kind: 'openai-compatible',
      base_url: root,
      api_key: 'right-key',
    });
    expect(wrongUrl.ok).toBe(false);
    expect(wrongUrl.error?.message).toContain(`Did you mean ${root}/v1?`);

    const closed = await startFakeOpenAI();
    await closed.close();
    const refused = await server.call<ProviderTest>('POST', '/api/providers/test', {
      kind: 'openai-compatible',
      base_url: closed.url,
    });
    expect(refused.ok).toBe(false);
    expect(refused.error?.message).toContain('Is the server running');
  });
});
