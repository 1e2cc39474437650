import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentError } from '@youyou/agent';
import {
  anthropic,
  deepseek,
  moonshot,
  ollama,
  openai,
  openaiCompatible,
  openrouter,
} from '@youyou/providers';
import { fakeTextReply, startFakeAnthropic, startFakeOpenAI } from '@youyou/testing';
import type { FakeServer } from '@youyou/testing';
import { bodyOf, chatRequest, collect, userText } from './helpers.ts';

let server: FakeServer | undefined;

afterEach(async () => {
  vi.unstubAllEnvs();
  server?.assertDone();
  await server?.close();
  server = undefined;
});

describe('model lists', () => {
  it('declares configured models without asking the server', async () => {
    server = await startFakeOpenAI();
    const provider = openaiCompatible({
      id: 'local',
      baseURL: server.url,
      models: [
        { id: 'qwen3:8b', displayName: 'Qwen3 8B', contextWindow: 40_960, capabilities: { vision: false } },
      ],
    });
    expect(await provider.listModels()).toEqual([
      {
        id: 'qwen3:8b',
        displayName: 'Qwen3 8B',
        contextWindow: 40_960,
        capabilities: { toolUse: true, vision: false, streaming: true },
      },
    ]);
    expect(server.requests).toHaveLength(0);
  });

  it('discovers models from GET /models once, with the key, a prefix and overrides on top', async () => {
    server = await startFakeOpenAI({ apiKey: 'k', models: [{ id: 'llama3.2' }, { id: 'qwen2.5-vl' }] });
    const provider = openaiCompatible({
      id: 'local',
      baseURL: server.url,
      apiKey: 'k',
      modelIdPrefix: 'local/',
      modelOverrides: { 'qwen2.5-vl': { contextWindow: 65_536, capabilities: { vision: true } } },
    });
    const models = await provider.listModels();
    expect(models.map((model) => [model.id, model.contextWindow, model.capabilities.vision])).toEqual([
      ['local/llama3.2', 32_768, false],
      ['local/qwen2.5-vl', 65_536, true],
    ]);
    await provider.listModels();
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models' });
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer k');
  });

  it('sends the server model name for a prefixed or aliased ID', async () => {
    server = await startFakeOpenAI({ script: [fakeTextReply('a'), fakeTextReply('b')] });
    const provider = openaiCompatible({
      id: 'local',
      baseURL: server.url,
      modelIdPrefix: 'local/',
      models: [{ id: 'llama3.2' }, { id: 'Qwen/Qwen3-8B', alias: 'qwen' }],
    });
    expect((await provider.listModels()).map((model) => model.id)).toEqual(['local/llama3.2', 'qwen']);
    await collect(provider, chatRequest({ model: 'local/llama3.2' }));
    await collect(provider, chatRequest({ model: 'qwen' }));
    expect(bodyOf(server.chatRequests, 0)['model']).toBe('llama3.2');
    expect(bodyOf(server.chatRequests, 1)['model']).toBe('Qwen/Qwen3-8B');
  });

  it('merges configured models into discovered ones when both are asked for', async () => {
    server = await startFakeOpenAI({ models: [{ id: 'a' }, { id: 'b', context_length: 4_096 }] });
    const provider = openaiCompatible({
      id: 'mixed',
      baseURL: server.url,
      discoverModels: true,
      models: [{ id: 'b', displayName: 'Model B' }, { id: 'c' }],
      includeModel: (id) => id !== 'a',
    });
    expect(
      (await provider.listModels()).map((model) => [model.id, model.displayName, model.contextWindow]),
    ).toEqual([
      ['b', 'Model B', 4_096],
      ['c', 'c', 32_768],
    ]);
  });

  it('reads the model facts OpenRouter reports', async () => {
    server = await startFakeOpenAI({
      models: [
        {
          id: 'anthropic/claude-sonnet-4.5',
          name: 'Anthropic: Claude Sonnet 4.5',
          context_length: 1_000_000,
          top_provider: { max_completion_tokens: 64_000 },
          architecture: { input_modalities: ['text', 'image', 'file'] },
          supported_parameters: ['tools', 'reasoning', 'temperature'],
        },
      ],
    });
    const [model] = await openrouter({ baseURL: server.url }).listModels();
    expect(model).toEqual({
      id: 'anthropic/claude-sonnet-4.5',
      displayName: 'Anthropic: Claude Sonnet 4.5',
      contextWindow: 1_000_000,
      maxOutputTokens: 64_000,
      capabilities: { toolUse: true, vision: true, streaming: true, documents: true, reasoning: true },
    });
  });

  it('refuses two models declared under one ID', async () => {
    const provider = openaiCompatible({
      id: 'dup',
      baseURL: 'http://127.0.0.1:1/v1',
      models: [
        { id: 'a', alias: 'same' },
        { id: 'b', alias: 'same' },
      ],
    });
    await expect(provider.listModels()).rejects.toMatchObject({ code: 'NAME_CONFLICT' });
  });

  it('fails discovery with a clear error, and tries again on the next call', async () => {
    server = await startFakeOpenAI({ apiKey: 'right' });
    const provider = openaiCompatible({ id: 'local', baseURL: server.url, apiKey: 'wrong' });
    await expect(provider.listModels()).rejects.toThrow(/Check your API key/);
    await expect(provider.listModels()).rejects.toBeInstanceOf(AgentError);
    expect(server.requests).toHaveLength(2);
  });

  it('reports a discovery failure as an error event when a chat needs the list', async () => {
    server = await startFakeOpenAI({ apiKey: 'right' });
    const provider = openaiCompatible({ id: 'local', baseURL: server.url, apiKey: 'wrong' });
    const events = await collect(provider);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'error', error: { code: 'PROVIDER_ERROR', retryable: false } });
  });

  it('discovers Anthropic models with sizes from the known Claude families', async () => {
    server = await startFakeAnthropic({
      apiKey: 'ak',
      models: [
        { id: 'claude-sonnet-4-5', display_name: 'Claude Sonnet 4.5' },
        { id: 'claude-3-5-haiku-20241022', display_name: 'Claude Haiku 3.5' },
      ],
    });
    const models = await anthropic({
      baseURL: server.url,
      apiKey: 'ak',
      modelIdPrefix: 'anthropic/',
    }).listModels();
    expect(models).toEqual([
      {
        id: 'anthropic/claude-sonnet-4-5',
        displayName: 'Claude Sonnet 4.5',
        contextWindow: 200_000,
        maxOutputTokens: 64_000,
        capabilities: { toolUse: true, vision: true, streaming: true, reasoning: true, documents: true },
      },
      {
        id: 'anthropic/claude-3-5-haiku-20241022',
        displayName: 'Claude Haiku 3.5',
        contextWindow: 200_000,
        maxOutputTokens: 8_192,
        capabilities: { toolUse: true, vision: true, streaming: true, reasoning: false, documents: true },
      },
    ]);
    expect(server.requests[0]?.path).toBe('/v1/models');
    expect(server.requests[0]?.headers['x-api-key']).toBe('ak');
  });

  it('reads the Anthropic key and base URL from the environment', async () => {
    server = await startFakeAnthropic({ apiKey: 'from-env', script: [fakeTextReply('ok')] });
    vi.stubEnv('ANTHROPIC_API_KEY', 'from-env');
    vi.stubEnv('ANTHROPIC_BASE_URL', server.url);
    const provider = anthropic({ models: [{ id: 'claude-sonnet-4-5' }] });
    const events = await collect(provider, chatRequest({ model: 'claude-sonnet-4-5' }));
    expect(events.at(-1)).toMatchObject({ type: 'done' });
  });
});

describe('presets', () => {
  it('openai() reads OPENAI_API_KEY, lists only chat models and sends max_completion_tokens', async () => {
    server = await startFakeOpenAI({
      apiKey: 'sk-env',
      models: [
        { id: 'gpt-4.1-mini' },
        { id: 'text-embedding-3-small' },
        { id: 'gpt-4o-mini-tts' },
        { id: 'o4-mini' },
      ],
      script: [fakeTextReply('ok')],
    });
    vi.stubEnv('OPENAI_API_KEY', 'sk-env');
    const provider = openai({ baseURL: server.url });
    const models = await provider.listModels();
    expect(models.map((model) => [model.id, model.contextWindow, model.capabilities.reasoning])).toEqual([
      ['gpt-4.1-mini', 1_047_576, false],
      ['o4-mini', 200_000, true],
    ]);
    await collect(provider, chatRequest({ model: 'gpt-4.1-mini', maxTokens: 100, reasoningEffort: 'low' }));
    const body = bodyOf(server.chatRequests);
    expect(body).toMatchObject({ max_completion_tokens: 100 });
    expect(body).not.toHaveProperty('reasoning_effort');
  });

  it('deepseek() sends reasoning back on tool-call turns', async () => {
    server = await startFakeOpenAI({ script: [fakeTextReply('ok')] });
    vi.stubEnv('DEEPSEEK_API_KEY', 'ds');
    const provider = deepseek({ baseURL: server.url, models: [{ id: 'deepseek-v4-pro' }] });
    const [model] = await provider.listModels();
    expect(model).toMatchObject({ contextWindow: 1_048_576, capabilities: { reasoning: true } });
    await collect(
      provider,
      chatRequest({
        model: 'deepseek-v4-pro',
        messages: [
          userText('Time?'),
          {
            role: 'assistant',
            content: '',
            status: 'complete',
            toolCalls: [{ callId: 'c', toolName: 't', arguments: '{}' }],
          },
          { role: 'tool', callId: 'c', toolName: 't', content: 'noon', isError: false },
        ],
      }),
    );
    expect(server.chatRequests[0]?.headers['authorization']).toBe('Bearer ds');
    expect((bodyOf(server.chatRequests)['messages'] as unknown[])[2]).toMatchObject({
      reasoning_content: '',
    });
  });

  it('moonshot() knows the Kimi and moonshot-v1 windows', async () => {
    const provider = moonshot({ models: [{ id: 'kimi-k2.6' }, { id: 'moonshot-v1-32k' }] });
    expect(
      (await provider.listModels()).map((model) => [
        model.id,
        model.contextWindow,
        model.capabilities.vision,
      ]),
    ).toEqual([
      ['kimi-k2.6', 262_144, true],
      ['moonshot-v1-32k', 32_768, false],
    ]);
  });

  it('openrouter() sends reasoningEffort as reasoning.effort', async () => {
    server = await startFakeOpenAI({ script: [fakeTextReply('ok')] });
    const provider = openrouter({ baseURL: server.url, models: [{ id: 'openai/gpt-5' }] });
    await collect(provider, chatRequest({ model: 'openai/gpt-5', reasoningEffort: 'high' }));
    const body = bodyOf(server.chatRequests);
    expect(body).toMatchObject({ reasoning: { effort: 'high' } });
    expect(body).not.toHaveProperty('reasoning_effort');
  });

  it('ollama() discovers local models with a small default window and marks vision families', async () => {
    server = await startFakeOpenAI({
      models: [{ id: 'llama3.2:3b' }, { id: 'gemma3:12b' }, { id: 'qwen3:8b' }],
    });
    const provider = ollama({ baseURL: server.url, modelIdPrefix: 'ollama/' });
    expect(provider.id).toBe('ollama');
    const models = await provider.listModels();
    expect(
      models.map((model) => [
        model.id,
        model.contextWindow,
        model.capabilities.vision,
        model.capabilities.reasoning,
      ]),
    ).toEqual([
      ['ollama/llama3.2:3b', 8_192, false, undefined],
      ['ollama/gemma3:12b', 8_192, true, false],
      ['ollama/qwen3:8b', 8_192, false, true],
    ]);
    expect(server.requests[0]?.headers['authorization']).toBeUndefined();
  });
});
