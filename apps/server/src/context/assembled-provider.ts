import type { ModelInfo, ModelProvider } from '@youyou/agent';
import type { RunAssembly } from './context-service.ts';

/**
 * Looks a request's model up in the provider's `listModels()` (asked once; asked again after a
 * failure), for the model's context window.
 *
 * @example
 * const modelOf = modelLookup(provider);
 * (await modelOf('local/qwen'))?.contextWindow; // 32768
 */
export function modelLookup(provider: ModelProvider): (id: string) => Promise<ModelInfo | undefined> {
  let models: Promise<readonly ModelInfo[]> | undefined;
  return async (id) => {
    models ??= Promise.resolve(provider.listModels());
    try {
      return (await models).find((model) => model.id === id);
    } catch {
      models = undefined; // asked again at the next call
      return undefined;
    }
  };
}

/**
 * A provider whose every request passes a run's context assembly first, with the budget of the
 * model the request names (its `contextWindow` in the provider's `listModels()`). Used for
 * detached agents (sub-agents), whose requests do not pass the pool's run slot.
 *
 * @example
 * wrapProvider: (provider) => assembledProvider(provider, context.forRun({ runId, conversationId, projectId }));
 */
export function assembledProvider(provider: ModelProvider, assembly: RunAssembly): ModelProvider {
  const modelOf = modelLookup(provider);
  return {
    id: provider.id,
    listModels: () => provider.listModels(),
    async *chat(request, options) {
      const assembled = await assembly.assemble(request, await modelOf(request.model), options.signal);
      yield* provider.chat(assembled, options);
    },
  };
}
