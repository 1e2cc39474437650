import type { ModelProvider } from '@youyou/agent';
import type { ProviderRegistry } from '../providers/index.ts';
import type { SettingsRepository } from '../storage/index.ts';

/** The setting that names the model for small tasks (spec §4.7 routing by kind). */
export const LIGHTWEIGHT_MODEL_SETTING = 'models.lightweight';

/**
 * The model configured for a kind of work, or undefined when none is: `models.lightweight` holds a
 * `provider/model` id of a configured provider. HITL free-input routing uses it; without one the
 * rules alone decide (spec §4.5).
 *
 * @example
 * const model = await resolveLightweightModel({ kind: 'lightweight', providers, settings });
 */
export async function resolveLightweightModel(options: {
  kind: 'lightweight';
  providers: ProviderRegistry;
  settings: SettingsRepository;
}): Promise<{ provider: ModelProvider; model: string } | undefined> {
  const id = await options.settings.get<string | null>('user', '', LIGHTWEIGHT_MODEL_SETTING);
  if (typeof id !== 'string' || !id.includes('/')) return undefined;
  const providerName = id.slice(0, id.indexOf('/'));
  const provider = (await options.providers.build()).find((candidate) => candidate.id === providerName);
  return provider === undefined ? undefined : { provider, model: id };
}
