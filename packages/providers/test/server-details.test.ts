import { afterEach, describe, expect, it } from 'vitest';
import { AgentError } from '@youyou/agent';
import { knownModel, ollama, openaiCompatible } from '@youyou/providers';
import { startFakeOpenAI } from '@youyou/testing';
import type { FakeServer } from '@youyou/testing';
import { chatRequest, collect, userText } from './helpers.ts';

let server: FakeServer | undefined;

async function failureOf(listing: readonly unknown[] | Promise<readonly unknown[]>): Promise<unknown> {
  try {
    await listing;
  } catch (error) {
    return error;
  }
  throw new Error('the listing did not fail');
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** What Ollama 0.12 answers on `/api/show` for three kinds of model. */
const OLLAMA_SHOW: Record<string, unknown> = {
  'qwen3:8b': {
    capabilities: ['completion', 'tools', 'thinking'],
    model_info: { 'general.architecture': 'qwen3', 'qwen3.context_length': 40_960 },
    parameters: 'temperature 0.6\ntop_k 20',
  },
  'gemma3:4b': {
    capabilities: ['completion', 'vision'],
    model_info: { 'general.architecture': 'gemma3', 'gemma3.context_length': 131_072 },
    parameters: 'num_ctx 16384\nstop "<end_of_turn>"',
  },
  'nomic-embed-text:latest': {
    capabilities: ['embedding'],
    model_info: { 'general.architecture': 'nomic-bert', 'nomic-bert.context_length': 2_048 },
  },
};

function fakeOllama(): Promise<FakeServer> {
  const names = Object.keys(OLLAMA_SHOW);
  return startFakeOpenAI({
    models: names.map((id) => ({ id, object: 'model', owned_by: 'library' })),
    routes: {
      'GET /api/tags': { models: names.map((name) => ({ name, model: name, details: {} })) },
      'POST /api/show': (body: unknown) => OLLAMA_SHOW[(body as { model?: string }).model ?? ''],
    },
  });
}

describe('model details from the server’s own endpoints', () => {
  it('an Ollama server’s /api/show gives each model its context window, capabilities and kind', async () => {
    server = await fakeOllama();
    const models = await ollama({ baseURL: server.url }).listModels();
    expect(models).toEqual([
      {
        id: 'qwen3:8b',
        displayName: 'qwen3:8b',
        contextWindow: 40_960,
        capabilities: { toolUse: true, vision: false, streaming: true, reasoning: true },
        kind: 'chat',
      },
      {
        id: 'gemma3:4b',
        displayName: 'gemma3:4b',
        contextWindow: 16_384,
        capabilities: { toolUse: false, vision: true, streaming: true, reasoning: false },
        kind: 'chat',
      },
      {
        id: 'nomic-embed-text:latest',
        displayName: 'nomic-embed-text:latest',
        contextWindow: 2_048,
        capabilities: { toolUse: false, vision: false, streaming: true, reasoning: false },
        kind: 'embedding',
      },
    ]);
  });

  it('llama.cpp’s /props gives the context size it runs with, over the n_ctx_train of its listing', async () => {
    server = await startFakeOpenAI({
      models: [{ id: 'Qwen3-8B-Q4_K_M.gguf', owned_by: 'llamacpp', meta: { n_ctx_train: 40_960 } }],
      routes: {
        'GET /props': { default_generation_settings: { n_ctx: 8_192 }, modalities: { vision: true } },
      },
    });
    const provider = openaiCompatible({ id: 'llama', baseURL: server.url, serverDetails: true });
    const [model] = await provider.listModels();
    expect(model).toMatchObject({ contextWindow: 8_192, capabilities: { vision: true } });
  });

  it('a llama.cpp listing without /props keeps its n_ctx_train', async () => {
    server = await startFakeOpenAI({
      models: [{ id: 'model.gguf', owned_by: 'llamacpp', meta: { n_ctx_train: 32_768 } }],
    });
    const provider = openaiCompatible({ id: 'llama', baseURL: server.url, serverDetails: true });
    expect((await provider.listModels())[0]?.contextWindow).toBe(32_768);
  });

  it('a server that is neither keeps the listing as it came, after one look for Ollama', async () => {
    server = await startFakeOpenAI({ models: [{ id: 'some-model' }] });
    const provider = openaiCompatible({ id: 'vllm', baseURL: server.url, serverDetails: true });
    expect(await provider.listModels()).toEqual([
      {
        id: 'some-model',
        displayName: 'some-model',
        contextWindow: 32_768,
        capabilities: { toolUse: true, vision: false, streaming: true },
      },
    ]);
    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /v1/models',
      'GET /api/tags',
    ]);
  });
});

describe('the known-model table', () => {
  it('knows hosted models by name, also behind a gateway prefix', () => {
    expect(knownModel('gpt-4o-mini')).toMatchObject({
      contextWindow: 128_000,
      capabilities: { vision: true },
    });
    expect(knownModel('openai/gpt-4.1')).toMatchObject({ contextWindow: 1_047_576 });
    expect(knownModel('deepseek-chat')).toMatchObject({ contextWindow: 1_048_576 });
    expect(knownModel('llava:13b')).toMatchObject({ capabilities: { vision: true } });
    expect(knownModel('my-finetune')).toBeUndefined();
  });
});

describe('errors a person can act on', () => {
  it('a refused connection asks whether the server is running', async () => {
    const closed = await startFakeOpenAI();
    await closed.close();
    const provider = openaiCompatible({ id: 'local', baseURL: closed.url });
    const error = await failureOf(provider.listModels());
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).message).toContain('connection refused');
    expect((error as AgentError).message).toContain('Is the server running');
  });

  it('a base URL without /v1 asks "did you mean …/v1?"', async () => {
    server = await startFakeOpenAI();
    const root = server.url.replace(/\/v1$/, '');
    const error = await failureOf(openaiCompatible({ id: 'local', baseURL: root }).listModels());
    expect((error as AgentError).message).toContain(`Did you mean ${root}/v1?`);
  });

  it('a 404 about the model says the model is missing, not the URL', async () => {
    server = await startFakeOpenAI({
      script: [
        {
          type: 'http',
          status: 404,
          body: { error: { message: 'model "qwen9" not found, try pulling it first' } },
        },
      ],
    });
    const provider = openaiCompatible({ id: 'local', baseURL: server.url, models: [{ id: 'qwen9' }] });
    const events = await collect(provider, chatRequest({ model: 'qwen9', messages: [userText('hi')] }));
    const failure = events.find((event) => event.type === 'error');
    const message = failure?.type === 'error' ? failure.error.message : '';
    expect(message).toContain('the server has no such model');
    expect(message).not.toContain('/v1');
  });
});
