import { AgentError } from '../errors/index.ts';
import type { ModelInfo, ModelProvider } from './model-provider.ts';

export interface RoutedModel {
  provider: ModelProvider;
  model: ModelInfo;
}

/** Maps every model ID to the one provider that serves it (spec §3.1: IDs are globally unique). */
export class ModelRouter {
  readonly #routes = new Map<string, RoutedModel>();

  /** Throws NAME_CONFLICT when two providers declare the same model ID. */
  constructor(providers: readonly { provider: ModelProvider; models: readonly ModelInfo[] }[]) {
    for (const { provider, models } of providers) {
      for (const model of models) {
        const existing = this.#routes.get(model.id);
        if (existing !== undefined) {
          throw new AgentError(
            'NAME_CONFLICT',
            `Model ID '${model.id}' is declared by providers '${existing.provider.id}' and '${provider.id}'; model IDs must be unique across providers.`,
            {
              source: 'provider',
              details: { modelId: model.id, providers: [existing.provider.id, provider.id] },
            },
          );
        }
        this.#routes.set(model.id, { provider, model });
      }
    }
  }

  /** Every model, in provider registration order. */
  get models(): readonly ModelInfo[] {
    return [...this.#routes.values()].map((route) => route.model);
  }

  find(modelId: string): RoutedModel | undefined {
    return this.#routes.get(modelId);
  }

  /** Throws MODEL_NOT_SUPPORTED when no provider serves `modelId`. */
  route(modelId: string): RoutedModel {
    const route = this.#routes.get(modelId);
    if (route === undefined) {
      const known = [...this.#routes.keys()].join(', ');
      throw new AgentError(
        'MODEL_NOT_SUPPORTED',
        `No provider serves model '${modelId}'. Known models: ${known}.`,
        {
          details: { modelId },
        },
      );
    }
    return route;
  }
}
