import { AgentError } from '@youyou/agent';
import type { ModelCapabilities, ModelInfo } from '@youyou/agent';
import type { ModelConfig, ModelListOptions, ModelSettings, ResolvedModel } from './model-config.ts';

export interface ModelCatalogOptions extends ModelListOptions {
  providerId: string;
  /** The lowest layer: what an unknown model is assumed to be. */
  defaults: { contextWindow: number; maxOutputTokens?: number; capabilities: ModelCapabilities };
  /** What the provider knows about well-known model names. */
  knownModel?: (serverId: string) => ModelSettings | undefined;
  /** Reads the server's model list. */
  discover: () => Promise<readonly ModelConfig[]>;
}

function merge(base: ModelSettings, layer: ModelSettings | undefined): ModelSettings {
  if (layer === undefined) return base;
  return {
    ...base,
    ...layer,
    capabilities: { ...base.capabilities, ...layer.capabilities },
  };
}

/**
 * A provider's model list, built once (discovery is cached; a failed discovery is tried again on
 * the next call) and looked up by the ID the agent uses.
 *
 * @example
 * const catalog = new ModelCatalog({ providerId: 'local', models: [{ id: 'qwen3:8b' }],
 *   defaults: { contextWindow: 8192, capabilities: { toolUse: true, vision: false, streaming: true } },
 *   discover: async () => [] });
 * await catalog.resolve('qwen3:8b'); // { serverId: 'qwen3:8b', contextWindow: 8192, … }
 */
export class ModelCatalog {
  readonly #options: ModelCatalogOptions;
  #loading: Promise<readonly ResolvedModel[]> | undefined;
  #byId = new Map<string, ResolvedModel>();

  constructor(options: ModelCatalogOptions) {
    this.#options = options;
  }

  /** The declared models, discovering them on first use. */
  async models(): Promise<readonly ResolvedModel[]> {
    this.#loading ??= this.#load().catch((error: unknown) => {
      this.#loading = undefined;
      throw error;
    });
    return this.#loading;
  }

  /** The models as the agent's `ModelInfo` list. */
  async modelInfos(): Promise<ModelInfo[]> {
    return (await this.models()).map(toModelInfo);
  }

  /**
   * The model the agent asked for. An ID the list does not hold is sent to the server as is
   * (without the prefix), with default settings, so an unlisted model still works.
   */
  async resolve(agentModelId: string): Promise<ResolvedModel> {
    await this.models();
    const known = this.#byId.get(agentModelId);
    if (known !== undefined) return known;
    const prefix = this.#options.modelIdPrefix ?? '';
    const serverId =
      prefix.length > 0 && agentModelId.startsWith(prefix) ? agentModelId.slice(prefix.length) : agentModelId;
    return this.#resolveOne({ id: serverId, alias: agentModelId });
  }

  async #load(): Promise<readonly ResolvedModel[]> {
    const options = this.#options;
    const configured = options.models ?? [];
    const discover = options.discoverModels ?? options.models === undefined;
    const entries = new Map<string, ModelConfig>();
    if (discover) {
      for (const discovered of await options.discover()) {
        if (options.includeModel === undefined || options.includeModel(discovered.id)) {
          entries.set(discovered.id, discovered);
        }
      }
    }
    for (const config of configured) {
      const discovered = entries.get(config.id);
      entries.set(
        config.id,
        discovered === undefined ? config : { ...merge(discovered, config), id: config.id },
      );
    }
    const resolved: ResolvedModel[] = [];
    const byId = new Map<string, ResolvedModel>();
    for (const entry of entries.values()) {
      const model = this.#resolveOne(entry);
      if (byId.has(model.id)) {
        throw new AgentError(
          'NAME_CONFLICT',
          `${options.providerId}: two models are declared as "${model.id}"; give one an alias.`,
          { source: 'provider', retryable: false },
        );
      }
      byId.set(model.id, model);
      resolved.push(model);
    }
    this.#byId = byId;
    return resolved;
  }

  #resolveOne(entry: ModelConfig): ResolvedModel {
    const options = this.#options;
    const { id: serverId, ...reported } = entry;
    let settings: ModelSettings = {
      contextWindow: options.defaults.contextWindow,
      capabilities: options.defaults.capabilities,
      ...(options.defaults.maxOutputTokens === undefined
        ? {}
        : { maxOutputTokens: options.defaults.maxOutputTokens }),
    };
    settings = merge(settings, options.knownModel?.(serverId));
    settings = merge(settings, reported);
    settings = merge(settings, options.modelOverrides?.[serverId]);
    const capabilities = { ...options.defaults.capabilities, ...settings.capabilities };
    return {
      serverId,
      id: settings.alias ?? `${options.modelIdPrefix ?? ''}${serverId}`,
      displayName: settings.displayName ?? serverId,
      contextWindow: settings.contextWindow ?? options.defaults.contextWindow,
      ...(settings.maxOutputTokens === undefined ? {} : { maxOutputTokens: settings.maxOutputTokens }),
      capabilities,
      ...(settings.kind === undefined ? {} : { kind: settings.kind }),
    };
  }
}

/** The agent-facing part of a resolved model. */
export function toModelInfo(model: ResolvedModel): ModelInfo {
  return {
    id: model.id,
    displayName: model.displayName,
    contextWindow: model.contextWindow,
    ...(model.maxOutputTokens === undefined ? {} : { maxOutputTokens: model.maxOutputTokens }),
    capabilities: model.capabilities,
    ...(model.kind === undefined ? {} : { kind: model.kind }),
  };
}
