import type { ChatRequest, ModelProvider } from '@youyou/agent';
import type { ModelKind } from '@youyou/contracts';
import { ApiError } from '../errors/index.ts';
import type { ProviderRegistry } from '../providers/index.ts';
import type { SettingsContext, SettingsService } from '../settings/index.ts';

/** A model chosen for a purpose, and why it was that one. */
export interface ResolvedModel {
  kind: ModelKind;
  /** `provider/model`. */
  modelId: string;
  /** The setting's parameters for this kind (lightweight: temperature, max_tokens …). */
  parameters: Readonly<Record<string, unknown>>;
  /**
   * `setting`: the kind's own setting; `chat`: a lightweight kind fell back to the chat model;
   * `first`: nothing is set and the first configured model serves.
   */
  via: 'setting' | 'chat' | 'first';
}

/** A lightweight or chat completion: one message in, the text out. */
export interface CompletionRequest {
  systemPrompt: string;
  text: string;
  signal?: AbortSignal;
}

const PARAMETER_KEYS: Partial<Record<ModelKind, string>> = {
  lightweight: 'models.lightweight_parameters',
  embedding: 'models.embedding_parameters',
};

/**
 * Model routing by purpose (spec §4.7): `chat` (conversations), `lightweight` (titles, HITL
 * free-input classification, memory candidates), `embedding` and `rerank`, each a setting that
 * names `provider/model` with parameters. An unset `lightweight` falls back to the chat model; an
 * unset `embedding` or `rerank` resolves to nothing (vector search and reranking are off).
 *
 * @example
 * const light = await routing.resolve('lightweight', { conversationId });
 * const title = await routing.complete('lightweight', { systemPrompt: 'Title this.', text }, { conversationId });
 */
export class ModelRouting {
  readonly #providers: ProviderRegistry;
  readonly #settings: SettingsService;

  constructor(providers: ProviderRegistry, settings: SettingsService) {
    this.#providers = providers;
    this.#settings = settings;
  }

  /** The model for a kind, or undefined when that kind is off (embedding, rerank) or no model exists. */
  async resolve(kind: ModelKind, context: SettingsContext = {}): Promise<ResolvedModel | undefined> {
    const models = await this.#providers.models();
    const known = (id: unknown): id is string =>
      typeof id === 'string' && models.some((model) => model.id === id);
    const parameters = await this.#parameters(kind, context);
    const own = await this.#settings.value<string | null>(`models.${kind}`, context);
    if (known(own)) return { kind, modelId: own, parameters, via: 'setting' };
    if (kind === 'embedding' || kind === 'rerank') return undefined;
    if (kind === 'lightweight') {
      const chat = await this.#settings.value<string | null>('models.chat', context);
      if (known(chat)) return { kind, modelId: chat, parameters, via: 'chat' };
    }
    const first = models[0]?.id;
    return first === undefined ? undefined : { kind, modelId: first, parameters, via: 'first' };
  }

  /** Whether `kind` has a model of its own (not a fallback). */
  async isSet(kind: ModelKind, context: SettingsContext = {}): Promise<boolean> {
    return (await this.resolve(kind, context))?.via === 'setting';
  }

  /**
   * Whether lightweight tasks (titles, card-answer classification) should call a model: one of
   * their own, or the chat model while `models.lightweight_fallback` is on (spec §4.7; off for a
   * slow local model, which then leaves these tasks to rules).
   */
  async lightweightAvailable(context: SettingsContext = {}): Promise<boolean> {
    const resolved = await this.resolve('lightweight', context);
    if (resolved === undefined) return false;
    if (resolved.via === 'setting') return true;
    return (await this.#settings.value<boolean>('models.lightweight_fallback', context)) === true;
  }

  /**
   * One completion by the model of `kind` (lightweight or chat): the reply's text. Throws
   * NO_MODEL_PROVIDER when there is no model, and the provider's error when the call fails.
   */
  async complete(
    kind: 'chat' | 'lightweight',
    request: CompletionRequest,
    context: SettingsContext = {},
  ): Promise<string> {
    const resolved = await this.resolve(kind, context);
    const provider = resolved === undefined ? undefined : await this.#providers.providerOf(resolved.modelId);
    if (resolved === undefined || provider === undefined) {
      throw new ApiError('NO_MODEL_PROVIDER', `No model serves the ${kind} kind: add a provider.`);
    }
    return collectText(
      provider,
      {
        model: resolved.modelId,
        systemPrompt: request.systemPrompt,
        messages: [{ role: 'user', content: [{ type: 'text', text: request.text }] }],
        tools: [],
        ...(typeof resolved.parameters['temperature'] === 'number'
          ? { temperature: resolved.parameters['temperature'] }
          : {}),
        ...(typeof resolved.parameters['max_tokens'] === 'number'
          ? { maxTokens: resolved.parameters['max_tokens'] }
          : {}),
      },
      request.signal,
    );
  }

  async #parameters(kind: ModelKind, context: SettingsContext): Promise<Readonly<Record<string, unknown>>> {
    const key = PARAMETER_KEYS[kind];
    if (key === undefined) return {};
    return (await this.#settings.value<Record<string, unknown> | null>(key, context)) ?? {};
  }
}

async function collectText(
  provider: ModelProvider,
  request: ChatRequest,
  signal?: AbortSignal,
): Promise<string> {
  const controller = new AbortController();
  const abort = (): void => controller.abort(signal?.reason);
  signal?.addEventListener('abort', abort, { once: true });
  let text = '';
  try {
    for await (const event of provider.chat(request, { signal: controller.signal })) {
      if (event.type === 'text_delta') text += event.text;
      else if (event.type === 'error') throw event.error;
      else if (event.type === 'context_length_exceeded') {
        throw new ApiError('INVALID_INPUT', `The text is too long for the model: ${event.message}`);
      } else if (event.type === 'done') break;
    }
  } finally {
    signal?.removeEventListener('abort', abort);
  }
  return text;
}
