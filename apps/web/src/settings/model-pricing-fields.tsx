import type { ReactElement } from 'react';
import type { ModelPricing, ProviderModel } from '@youyou/contracts';
import { useTranslation, type MessageKey } from '../i18n/index.ts';

const FIELDS: readonly { key: keyof ModelPricing; label: MessageKey }[] = [
  { key: 'input', label: 'pricing.input' },
  { key: 'output', label: 'pricing.output' },
  { key: 'cache_read', label: 'pricing.cacheRead' },
  { key: 'cache_write', label: 'pricing.cacheWrite' },
];

/**
 * A model with one price changed. An emptied cache price falls back to the input price; a model
 * whose prices are all empty or zero has none (its cost is unknown, not free).
 */
export function withPrice(model: ProviderModel, key: keyof ModelPricing, text: string): ProviderModel {
  const value = Number.parseFloat(text);
  const current: ModelPricing = model.pricing ?? { input: 0, output: 0 };
  const next: ModelPricing = { ...current };
  if (Number.isFinite(value) && value >= 0) next[key] = value;
  else if (key === 'cache_read' || key === 'cache_write') delete next[key];
  else next[key] = 0;
  const { pricing: _dropped, ...rest } = model;
  const empty =
    next.input === 0 && next.output === 0 && next.cache_read === undefined && next.cache_write === undefined;
  return empty ? rest : { ...rest, pricing: next };
}

/** The prices of one model, US dollars per million tokens (the usage page's cost comes from them). */
export function ModelPricingFields({
  model,
  onChange,
}: {
  model: ProviderModel;
  onChange: (model: ProviderModel) => void;
}): ReactElement {
  const t = useTranslation();
  return (
    <fieldset className="model-pricing">
      <legend>{t('pricing.title')}</legend>
      {FIELDS.map(({ key, label }) => (
        <label key={key} className="field compact">
          <span>{t(label)}</span>
          <input
            type="number"
            min={0}
            step="any"
            inputMode="decimal"
            value={model.pricing?.[key] ?? ''}
            placeholder={key === 'cache_read' || key === 'cache_write' ? t('pricing.asInput') : ''}
            aria-label={`${t(label)} · ${model.id}`}
            onChange={(event) => onChange(withPrice(model, key, event.target.value))}
          />
        </label>
      ))}
    </fieldset>
  );
}
