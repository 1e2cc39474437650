import { AgentError } from '@youyou/agent';
import type { ChatEvent, ChatOptions, ChatRequest, ModelInfo, ModelProvider } from '@youyou/agent';
import { getJson, resolveRetryPolicy, streamCall } from '../http/index.ts';
import { ModelCatalog } from '../models/index.ts';
import { readOpenAIModelList } from './discover-openai-models.ts';
import { addServerDetails } from './discover-server-details.ts';
import type { OpenAICompatibleOptions } from './openai-compatible-options.ts';
import { OpenAIStreamDecoder } from './openai-stream-decoder.ts';
import { buildChatCompletionsBody } from './request-body.ts';

const DEFAULT_CONTEXT_WINDOW = 32_768;

function trimSlashes(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * What a 404 most likely means: nearly every OpenAI-compatible server (OpenAI, Ollama, vLLM,
 * llama.cpp, LM Studio) serves its API under `/v1`, and a base URL without it is the usual slip.
 */
function notFoundHint(baseURL: string): string {
  let path = '';
  try {
    path = new URL(baseURL).pathname;
  } catch {
    // An unparsable URL fails before any request; the hint is never shown.
  }
  if (!/\/v\d+[a-z\d]*(\/|$)/i.test(path)) {
    return `Did you mean ${baseURL}/v1? OpenAI-compatible servers serve their API under /v1, so try ${baseURL}/v1.`;
  }
  return `Check the base URL: the request went to ${baseURL}/chat/completions.`;
}

/**
 * A provider for any server that speaks OpenAI's Chat Completions with streaming: OpenAI,
 * Ollama, vLLM, llama.cpp, LM Studio, DeepSeek, Moonshot, Qwen, OpenRouter …
 *
 * Models come from `models`, or from the server's `GET /models` (on first use, cached), with
 * `modelOverrides` on top; `modelIdPrefix` or `alias` keeps IDs unique across providers.
 *
 * @example
 * const local = openaiCompatible({
 *   id: 'vllm',
 *   baseURL: 'http://127.0.0.1:8000/v1',
 *   models: [{ id: 'Qwen/Qwen3-8B', alias: 'qwen3', contextWindow: 32_768 }],
 * });
 * const agent = await new AgentBuilder({ cwd }).addProvider(local).build();
 */
export function openaiCompatible(options: OpenAICompatibleOptions): ModelProvider {
  const baseURL = trimSlashes(options.baseURL);
  const retry = resolveRetryPolicy(options.retry);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'text/event-stream',
    ...(options.apiKey === undefined || options.apiKey.length === 0
      ? {}
      : { authorization: `Bearer ${options.apiKey}` }),
    ...options.headers,
  };
  const failureContext = {
    providerId: options.id,
    ...(options.apiKeyHint === undefined ? {} : { keyHint: options.apiKeyHint }),
    notFoundHint: notFoundHint(baseURL),
  };
  const catalog = new ModelCatalog({
    ...options,
    providerId: options.id,
    defaults: {
      contextWindow: options.modelDefaults?.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
      ...(options.modelDefaults?.maxOutputTokens === undefined
        ? {}
        : { maxOutputTokens: options.modelDefaults.maxOutputTokens }),
      capabilities: { toolUse: true, vision: false, streaming: true, ...options.modelDefaults?.capabilities },
    },
    ...(options.knownModel === undefined ? {} : { knownModel: options.knownModel }),
    discover: async () => {
      const { accept: _accept, 'content-type': _contentType, ...getHeaders } = headers;
      const listing = await getJson({ ...failureContext, url: `${baseURL}/models`, headers: getHeaders });
      const models = readOpenAIModelList(listing);
      return options.serverDetails === true ? addServerDetails(baseURL, getHeaders, listing, models) : models;
    },
  });

  return {
    id: options.id,
    listModels: (): Promise<ModelInfo[]> => catalog.modelInfos(),
    async *chat(request: ChatRequest, chatOptions: ChatOptions): AsyncGenerator<ChatEvent> {
      let body: string;
      try {
        const model = await catalog.resolve(request.model);
        body = JSON.stringify(buildChatCompletionsBody(request, model, options));
      } catch (error) {
        yield {
          type: 'error',
          error: AgentError.fromUnknown(error, 'PROVIDER_ERROR', { source: 'provider' }),
        };
        return;
      }
      yield* streamCall({
        ...failureContext,
        url: `${baseURL}/chat/completions`,
        headers,
        body,
        signal: chatOptions.signal,
        retry,
        createDecoder: () => new OpenAIStreamDecoder(options.id),
      });
    },
  };
}
