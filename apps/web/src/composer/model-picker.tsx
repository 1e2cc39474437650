import { forwardRef, type ReactElement } from 'react';
import type { ModelOption } from '@youyou/contracts';
import { useTranslation } from '../i18n/index.ts';
import { usePreferences } from '../preferences/index.ts';
import { useModels } from '../queries/index.ts';

/** The model new messages go to: the person's choice when it is still offered, else the default. */
export function useSelectedModel(): ModelOption | undefined {
  const models = useModels();
  const chosen = usePreferences((state) => state.modelId);
  const options = models.data?.models ?? [];
  const id =
    chosen !== undefined && options.some((model) => model.id === chosen)
      ? chosen
      : (models.data?.default_model ?? undefined);
  return options.find((model) => model.id === id);
}

/** What a model can do, as the picker shows it beside its name. */
function capabilityLabel(model: ModelOption, t: ReturnType<typeof useTranslation>): string {
  const flags = model.capabilities ?? {};
  const names = [
    flags.tools === true ? t('providers.capability.tools') : undefined,
    flags.vision === true ? t('providers.capability.vision') : undefined,
    flags.reasoning === true ? t('providers.capability.reasoning') : undefined,
    flags.documents === true ? t('providers.capability.documents') : undefined,
  ].filter((name) => name !== undefined);
  return names.length === 0 ? '' : ` — ${names.join(', ')}`;
}

/** The model for new messages, grouped by provider, with what each model can do. */
export const ModelPicker = forwardRef<HTMLSelectElement>(
  function ModelPicker(_props, reference): ReactElement {
    const t = useTranslation();
    const models = useModels();
    const setPreferences = usePreferences((state) => state.set);
    const options = models.data?.models ?? [];
    const value = useSelectedModel()?.id ?? '';
    const providers = [...new Set(options.map((model) => model.provider))];
    return (
      <select
        ref={reference}
        className="model-picker"
        aria-label={t('composer.model')}
        value={value}
        disabled={options.length === 0}
        onChange={(event) => setPreferences({ modelId: event.target.value })}
      >
        {options.length === 0 && <option value="">{t('composer.noModels')}</option>}
        {providers.map((provider) => (
          <optgroup key={provider} label={provider}>
            {options
              .filter((model) => model.provider === provider)
              .map((model) => (
                <option key={model.id} value={model.id} title={model.id}>
                  {model.display_name} · {model.provider}
                  {capabilityLabel(model, t)}
                </option>
              ))}
          </optgroup>
        ))}
      </select>
    );
  },
);
