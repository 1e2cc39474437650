import { forwardRef, type ReactElement } from 'react';
import { useTranslation } from '../i18n/index.ts';
import { usePreferences } from '../preferences/index.ts';
import { useModels } from '../queries/index.ts';

/** The model for new messages: the preference, else the server's default. */
export const ModelPicker = forwardRef<HTMLSelectElement>(
  function ModelPicker(_props, reference): ReactElement {
    const t = useTranslation();
    const models = useModels();
    const chosen = usePreferences((state) => state.modelId);
    const setPreferences = usePreferences((state) => state.set);
    const options = models.data?.models ?? [];
    const value =
      chosen !== undefined && options.some((model) => model.id === chosen)
        ? chosen
        : (models.data?.default_model ?? '');
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
        {options.map((model) => (
          <option key={model.id} value={model.id}>
            {model.display_name} · {model.provider}
          </option>
        ))}
      </select>
    );
  },
);
