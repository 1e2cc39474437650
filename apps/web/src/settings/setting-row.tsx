import { useQueryClient } from '@tanstack/react-query';
import type { FormValue, SettingDefinition, SettingLayer } from '@youyou/contracts';
import { useState, type ReactElement } from 'react';
import { errorMessage } from '../api/index.ts';
import { SETTINGS_KEY, useProfiles } from '../customise/index.ts';
import { useResolvedLanguage, useTranslation, type MessageKey } from '../i18n/index.ts';
import { useModels } from '../queries/index.ts';
import { useServices } from '../services/index.ts';
import { FormFields, type UiWidgetProps } from '../ui-schema/index.ts';
import { fieldValue, settingField, settingValue, textOf } from './setting-field.ts';
import { useSettingsScope } from './settings-scope.ts';

const EFFECT_LABELS: Record<SettingDefinition['effect'], MessageKey> = {
  hot: 'schema.effect.hot',
  'new-run': 'schema.effect.newRun',
  restart: 'schema.effect.restart',
};
const LAYER_LABELS: Record<SettingLayer, MessageKey> = {
  system: 'schema.layer.system',
  user: 'schema.layer.user',
  project: 'schema.layer.project',
  conversation: 'schema.layer.conversation',
};

/**
 * The `setting` widget: one setting of the schema — its control (a form field of the UI-schema
 * renderer), when a change takes effect, which layer its value comes from, and reset. Written at
 * the page's layer as soon as a choice changes, or when a typed value is left or confirmed.
 */
export function SettingRow({ props }: UiWidgetProps): ReactElement {
  const t = useTranslation();
  const language = useResolvedLanguage();
  const queryClient = useQueryClient();
  const models = useModels();
  const profiles = useProfiles();
  const scope = useSettingsScope();
  const { api } = useServices();
  const [draft, setDraft] = useState<FormValue | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [saved, setSaved] = useState(false);
  const key = String(props['key'] ?? '');
  const definition = scope.definitions.get(key);
  if (definition === undefined) return <p className="schema-setting-note">{key}</p>;
  const effective = scope.effective.get(key);
  const { target } = scope;
  const writable = definition.layers.includes(target.layer);
  const label = definition.label[language];
  const { schema } = definition;
  const choices =
    schema.format === 'model'
      ? (models.data?.models ?? []).map((model) => ({ value: model.id, label: model.id }))
      : (profiles.data ?? []).map((profile) => ({ value: profile.id, label: profile.name }));
  const { field, commit } = settingField(definition, label, choices);
  const current = textOf(effective?.value);
  if (field.type === 'select' && current !== '' && !(field.options ?? []).some((o) => o.value === current)) {
    field.options = [...(field.options ?? []), { value: current, label: current }];
  }
  if (definition.secret) {
    field.placeholder = effective?.has_value === true ? t('schema.secretStored') : t('schema.secretEmpty');
  } else if (schema.nullable === true && field.type !== 'select') {
    field.placeholder = t('schema.notSet');
  }
  const range =
    schema.minimum !== undefined || schema.maximum !== undefined
      ? ` (${schema.minimum ?? '−∞'} – ${schema.maximum ?? '∞'})`
      : '';
  field.description = `${definition.help[language]}${range}`;
  const shown = draft ?? fieldValue(definition, field, effective?.value);

  const write = async (next: FormValue): Promise<void> => {
    setError(undefined);
    setSaved(false);
    if (definition.secret && next === '') return;
    const parsed = settingValue(definition, field, next);
    if ('error' in parsed) {
      setError(t(parsed.error));
      return;
    }
    try {
      await api.writeSettings({ ...target, values: { [key]: parsed.value } });
      setDraft(undefined);
      setSaved(true);
      await queryClient.invalidateQueries({ queryKey: SETTINGS_KEY });
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  const reset = async (): Promise<void> => {
    setError(undefined);
    try {
      await api.resetSetting(key, target);
      setDraft(undefined);
      await queryClient.invalidateQueries({ queryKey: SETTINGS_KEY });
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  const leave = (): void => {
    if (commit === 'leave' && draft !== undefined) void write(draft);
  };

  return (
    <div
      className="schema-setting"
      data-setting-key={key}
      data-json={field.type === 'textarea' && schema.type !== 'string' ? '' : undefined}
    >
      <div className="schema-setting-head">
        <span
          className={`badge effect-${definition.effect}`}
          title={t(`${EFFECT_LABELS[definition.effect]}.help` as MessageKey)}
        >
          {t(EFFECT_LABELS[definition.effect])}
        </span>
        <span
          className={`badge layer-badge layer-${effective?.layer ?? 'system'}`}
          data-testid="setting-source"
        >
          {t('schema.from', { layer: t(LAYER_LABELS[effective?.layer ?? 'system']) })}
        </span>
        {definition.source !== 'builtin' && (
          <span className="badge">{`${definition.source}${definition.source_id === undefined ? '' : `: ${definition.source_id}`}`}</span>
        )}
        {definition.secret && <span className="badge muted">{t('schema.secret')}</span>}
      </div>
      <div
        className="schema-setting-control"
        onBlur={leave}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && field.type !== 'textarea') leave();
        }}
      >
        <FormFields
          idPrefix={`setting-${key.replace(/\W/g, '-')}`}
          fields={[field]}
          values={{ value: shown }}
          problems={error === undefined ? {} : { value: error }}
          disabled={!writable}
          onChange={(_id, value) => {
            if (commit === 'change') void write(value);
            else setDraft(value);
          }}
        />
        {effective?.set_at.includes(target.layer) === true && writable && (
          <button type="button" className="button" onClick={() => void reset()}>
            {t('schema.reset')}
          </button>
        )}
      </div>
      {!writable && (
        <p className="schema-setting-note">
          {t('schema.notAtLayer', { layers: definition.layers.join(', ') })}
        </p>
      )}
      {effective?.pending_restart === true && (
        <p className="schema-setting-note warning">{t('schema.pendingRestart')}</p>
      )}
      {saved && error === undefined && definition.effect === 'new-run' && (
        <p className="schema-setting-note" role="status">
          {t('schema.savedNextRun')}
        </p>
      )}
      {saved && error === undefined && definition.effect === 'restart' && (
        <p className="schema-setting-note" role="status">
          {t('schema.savedRestart')}
        </p>
      )}
    </div>
  );
}
