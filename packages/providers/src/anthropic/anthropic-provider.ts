import { AgentError } from '@youyou/agent';
import type { ChatEvent, ChatOptions, ChatRequest, ModelInfo, ModelProvider } from '@youyou/agent';
import { getJson, resolveRetryPolicy, streamCall } from '../http/index.ts';
import { ModelCatalog } from '../models/index.ts';
import type { ModelConfig } from '../models/index.ts';
import type { AnthropicOptions } from './anthropic-options.ts';
import { AnthropicStreamDecoder } from './anthropic-stream-decoder.ts';
import { readAnthropicModelPage } from './discover-anthropic-models.ts';
import { knownAnthropicModel } from './known-anthropic-models.ts';
import { buildMessagesBody } from './request-body.ts';

const DEFAULT_BASE_URL = 'https://api.anthropic.com';
const MAX_MODEL_PAGES = 10;

/**
 * A provider for Anthropic's Messages API (and servers that speak it). The key and base URL
 * default to `ANTHROPIC_API_KEY` and `ANTHROPIC_BASE_URL`; models are discovered from
 * `GET /v1/models` unless configured.
 *
 * @example
 * const claude = anthropic({ models: [{ id: 'claude-sonnet-4-5', alias: 'sonnet' }] });
 * const agent = await new AgentBuilder({ cwd }).addProvider(claude).build();
 * const session = await agent.newSession({ modelId: 'sonnet' });
 */
export function anthropic(options: AnthropicOptions = {}): ModelProvider {
  const id = options.id ?? 'anthropic';
  const baseURL = (options.baseURL ?? process.env['ANTHROPIC_BASE_URL'] ?? DEFAULT_BASE_URL).replace(
    /\/+$/,
    '',
  );
  const apiKey = options.apiKey ?? process.env['ANTHROPIC_API_KEY'] ?? '';
  const retry = resolveRetryPolicy(options.retry);
  const baseHeaders: Record<string, string> = {
    'anthropic-version': options.version ?? '2023-06-01',
    ...(apiKey.length > 0 ? { 'x-api-key': apiKey } : {}),
    ...options.headers,
  };
  const streamHeaders = { ...baseHeaders, 'content-type': 'application/json', accept: 'text/event-stream' };
  const failureContext = {
    providerId: id,
    keyHint: '(ANTHROPIC_API_KEY, or the apiKey option)',
    notFoundHint: /\/v1$/.test(baseURL)
      ? `The provider adds /v1/messages itself: try the base URL without /v1 (${baseURL.replace(/\/v1$/, '')}).`
      : `Check the base URL: the request went to ${baseURL}/v1/messages.`,
  };
  const catalog = new ModelCatalog({
    ...options,
    providerId: id,
    defaults: {
      contextWindow: options.modelDefaults?.contextWindow ?? 200_000,
      maxOutputTokens: options.modelDefaults?.maxOutputTokens ?? 32_000,
      capabilities: {
        toolUse: true,
        vision: true,
        streaming: true,
        reasoning: true,
        documents: true,
        ...options.modelDefaults?.capabilities,
      },
    },
    knownModel: options.knownModel ?? knownAnthropicModel,
    discover: async () => {
      const models: ModelConfig[] = [];
      let afterId: string | undefined;
      for (let page = 0; page < MAX_MODEL_PAGES; page += 1) {
        const query =
          afterId === undefined ? '?limit=1000' : `?limit=1000&after_id=${encodeURIComponent(afterId)}`;
        const document = await getJson({
          ...failureContext,
          url: `${baseURL}/v1/models${query}`,
          headers: baseHeaders,
        });
        const result = readAnthropicModelPage(document);
        models.push(...result.models);
        afterId = result.nextAfterId;
        if (afterId === undefined) break;
      }
      return models;
    },
  });

  return {
    id,
    listModels: (): Promise<ModelInfo[]> => catalog.modelInfos(),
    async *chat(request: ChatRequest, chatOptions: ChatOptions): AsyncGenerator<ChatEvent> {
      let body: string;
      let serverModel: string;
      try {
        const model = await catalog.resolve(request.model);
        serverModel = model.serverId;
        body = JSON.stringify(buildMessagesBody(request, model, options));
      } catch (error) {
        yield {
          type: 'error',
          error: AgentError.fromUnknown(error, 'PROVIDER_ERROR', { source: 'provider' }),
        };
        return;
      }
      yield* streamCall({
        ...failureContext,
        url: `${baseURL}/v1/messages`,
        headers: streamHeaders,
        body,
        signal: chatOptions.signal,
        retry,
        createDecoder: () => new AnthropicStreamDecoder(id, serverModel),
      });
    },
  };
}
