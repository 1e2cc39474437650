import { useQueryClient } from '@tanstack/react-query';
import type {
  SettingScope,
  EffectiveSetting,
  SettingDefinition,
  SettingLayer,
  WritableSettingLayer,
} from '@youyou/contracts';
import { useState, type ReactElement } from 'react';
import { errorMessage } from '../api/index.ts';
import { useResolvedLanguage, useTranslation, type MessageKey } from '../i18n/index.ts';
import { useNavigation } from '../navigation/index.ts';
import { useModels } from '../queries/index.ts';
import { useServices } from '../services/index.ts';
import { SETTINGS_KEY, useEffectiveSettings, useProfiles, useSettingsSchema } from './customise-queries.ts';

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

/** A value as the text of an input. */
function textOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value, null, 2);
}

function parseDraft(definition: SettingDefinition, text: string): { value: unknown } | { error: MessageKey } {
  const { schema } = definition;
  if (text.trim() === '' && schema.nullable === true) return { value: null };
  switch (schema.type) {
    case 'number':
    case 'integer': {
      const value = Number(text);
      if (text.trim() === '' || Number.isNaN(value)) return { error: 'schema.notANumber' };
      return { value };
    }
    case 'object':
    case 'array':
      try {
        return { value: JSON.parse(text) as unknown };
      } catch {
        return { error: 'schema.notJson' };
      }
    default:
      return { value: text };
  }
}

function SettingControl({
  definition,
  effective,
  target,
  writable,
}: {
  definition: SettingDefinition;
  effective: EffectiveSetting | undefined;
  target: SettingScope;
  writable: boolean;
}): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const language = useResolvedLanguage();
  const queryClient = useQueryClient();
  const models = useModels();
  const profiles = useProfiles();
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [saved, setSaved] = useState(false);
  const label = definition.label[language];
  const { schema } = definition;
  const value = effective?.value;
  const setHere = effective?.set_at.includes(target.layer) === true;

  const commit = async (next: unknown): Promise<void> => {
    setError(undefined);
    setSaved(false);
    try {
      await api.writeSettings({ ...target, values: { [definition.key]: next } });
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
      await api.resetSetting(definition.key, target);
      setDraft(undefined);
      await queryClient.invalidateQueries({ queryKey: SETTINGS_KEY });
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  const commitDraft = (): void => {
    if (draft === undefined) return;
    const parsed = parseDraft(definition, draft);
    if ('error' in parsed) setError(t(parsed.error));
    else void commit(parsed.value);
  };
  const id = `setting-${definition.key.replace(/\W/g, '-')}`;
  const disabled = !writable;

  let control: ReactElement;
  if (definition.secret) {
    control = (
      <input
        id={id}
        type="password"
        className="input"
        autoComplete="off"
        aria-label={label}
        disabled={disabled}
        placeholder={effective?.has_value === true ? t('schema.secretStored') : t('schema.secretEmpty')}
        value={draft ?? ''}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={() => draft !== undefined && draft !== '' && void commit(draft)}
        onKeyDown={(event) =>
          event.key === 'Enter' && draft !== undefined && draft !== '' && void commit(draft)
        }
      />
    );
  } else if (schema.type === 'boolean') {
    control = (
      <input
        id={id}
        type="checkbox"
        className="switch"
        role="switch"
        aria-label={label}
        disabled={disabled}
        checked={value === true}
        onChange={(event) => void commit(event.target.checked)}
      />
    );
  } else if (schema.enum !== undefined || schema.format === 'model' || schema.format === 'profile') {
    const options: { value: string; label: string }[] =
      schema.enum !== undefined
        ? schema.enum.map((option) => ({ value: String(option), label: String(option) }))
        : schema.format === 'model'
          ? (models.data?.models ?? []).map((model) => ({ value: model.id, label: model.id }))
          : (profiles.data ?? []).map((profile) => ({ value: profile.id, label: profile.name }));
    const current = textOf(value);
    if (current !== '' && !options.some((option) => option.value === current)) {
      options.push({ value: current, label: current });
    }
    control = (
      <select
        id={id}
        className="input"
        aria-label={label}
        disabled={disabled}
        value={current}
        onChange={(event) => {
          const chosen = event.target.value;
          const option = schema.enum?.find((candidate) => String(candidate) === chosen);
          void commit(chosen === '' ? null : (option ?? chosen));
        }}
      >
        {(schema.nullable === true || current === '') && <option value="">{t('schema.notSet')}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    );
  } else if (schema.type === 'object' || schema.type === 'array' || schema.format === 'multiline') {
    control = (
      <textarea
        id={id}
        aria-label={label}
        disabled={disabled}
        rows={schema.format === 'multiline' ? 4 : 3}
        className={schema.type === 'string' ? 'input' : 'input code-input'}
        value={draft ?? textOf(value)}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={commitDraft}
      />
    );
  } else {
    const numeric = schema.type === 'number' || schema.type === 'integer';
    control = (
      <input
        id={id}
        type={numeric ? 'number' : 'text'}
        className="input"
        aria-label={label}
        disabled={disabled}
        {...(schema.minimum === undefined ? {} : { min: schema.minimum })}
        {...(schema.maximum === undefined ? {} : { max: schema.maximum })}
        {...(schema.type === 'integer' ? { step: 1 } : numeric ? { step: 'any' } : {})}
        {...(schema.maxLength === undefined ? {} : { maxLength: schema.maxLength })}
        placeholder={schema.nullable === true ? t('schema.notSet') : undefined}
        value={draft ?? textOf(value)}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={commitDraft}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commitDraft();
        }}
      />
    );
  }

  const range =
    schema.minimum !== undefined || schema.maximum !== undefined
      ? `${schema.minimum ?? '−∞'} – ${schema.maximum ?? '∞'}`
      : undefined;
  return (
    <li className="schema-setting" data-setting-key={definition.key}>
      <div className="schema-setting-head">
        <label htmlFor={id} className="schema-setting-label">
          {label}
        </label>
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
      <p className="schema-setting-help">
        {definition.help[language]}
        {range !== undefined && <span className="schema-setting-range"> ({range})</span>}
      </p>
      <div className="schema-setting-control">
        {control}
        {setHere && writable && (
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
      {error !== undefined && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}

/**
 * Settings → Preferences: every setting of the server's schema, rendered from it (spec §4.1 rule
 * 3, §4.9) — sections, a control per type, when a change takes effect, which layer the value comes
 * from, reset. A setting the server (or an extension) registers appears here with no change to the
 * UI. Values are written at the layer chosen on top: everyone (user), the current project, or the
 * current conversation.
 */
export function SchemaSettingsSection(): ReactElement {
  const t = useTranslation();
  const language = useResolvedLanguage();
  const projectId = useNavigation((state) => state.projectId);
  const conversationId = useNavigation((state) => state.lastConversationId);
  const [layer, setLayer] = useState<WritableSettingLayer>('user');
  const schema = useSettingsSchema();
  const context = layer === 'conversation' ? { conversationId } : layer === 'project' ? { projectId } : {};
  const effective = useEffectiveSettings(context);
  const scopeId = layer === 'conversation' ? conversationId : layer === 'project' ? projectId : undefined;
  const target: SettingScope = scopeId === undefined ? { layer } : { layer, scope_id: scopeId };
  const byKey = new Map((effective.data?.settings ?? []).map((entry) => [entry.key, entry]));
  const layers: { value: WritableSettingLayer; label: string; available: boolean }[] = [
    { value: 'user', label: t('schema.scope.user'), available: true },
    { value: 'project', label: t('schema.scope.project'), available: projectId !== undefined },
    { value: 'conversation', label: t('schema.scope.conversation'), available: conversationId !== undefined },
  ];
  return (
    <section aria-labelledby="settings-schema" className="schema-settings">
      <h2 id="settings-schema">{t('settings.schema')}</h2>
      <p className="settings-intro">{t('schema.intro')}</p>
      <fieldset className="choice-group">
        <legend>{t('schema.scope')}</legend>
        <div className="segmented">
          {layers.map((option) => (
            <label key={option.value} className={`segment${option.value === layer ? ' checked' : ''}`}>
              <input
                type="radio"
                name="settings-layer"
                value={option.value}
                disabled={!option.available}
                checked={option.value === layer}
                onChange={() => setLayer(option.value)}
              />
              {option.label}
            </label>
          ))}
        </div>
      </fieldset>
      {schema.isError && <p className="field-error">{errorMessage(schema.error)}</p>}
      {(schema.data?.sections ?? []).map((section) => (
        <div key={section.id} className="schema-section" data-section={section.id}>
          <h3>{section.label[language]}</h3>
          <ul className="schema-setting-list">
            {(schema.data?.settings ?? [])
              .filter((definition) => definition.section === section.id)
              .map((definition) => (
                <SettingControl
                  key={`${definition.key}:${layer}`}
                  definition={definition}
                  effective={byKey.get(definition.key)}
                  target={target}
                  writable={definition.layers.includes(layer)}
                />
              ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
