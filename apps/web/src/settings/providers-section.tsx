import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactElement } from 'react';
import { errorMessage } from '../api/index.ts';
import type { Provider, ProviderCreate, ProviderTest } from '@youyou/contracts';

/** A test's outcome; a call that failed before the server answered has no latency. */
type TestOutcome = Omit<ProviderTest, 'latency_ms'> & { latency_ms?: number };
import { useServices } from '../services/index.ts';
import { useTranslation } from '../i18n/index.ts';
import { MODELS_KEY, PROVIDERS_KEY, useModels, useProviders } from '../queries/index.ts';
import { CardActions, ConfirmRemove } from './card-actions.tsx';
import { ConnectionFields, isProviderUrl, parseHeaderLines } from './connection-fields.tsx';
import { ProviderEditor } from './provider-editor.tsx';
import { PROVIDER_NAME_PATTERN, PROVIDER_PRESETS, parseModelList } from './provider-presets.ts';

function ProviderForm({ onDone }: { onDone: () => void }): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const [presetId, setPresetId] = useState('openai');
  const preset = PROVIDER_PRESETS.find((item) => item.id === presetId) ?? PROVIDER_PRESETS[0];
  const [name, setName] = useState(preset?.id ?? '');
  const [baseUrl, setBaseUrl] = useState(preset?.baseUrl ?? '');
  const [kind, setKind] = useState(preset?.kind ?? 'openai-compatible');
  const [apiKey, setApiKey] = useState('');
  const [headers, setHeaders] = useState('');
  const [models, setModels] = useState((preset?.models ?? []).join(', '));
  const [testResult, setTestResult] = useState<TestOutcome>();

  const input = (): ProviderCreate => ({
    name: name.trim(),
    kind,
    base_url: baseUrl.trim(),
    ...(apiKey === '' ? {} : { api_key: apiKey }),
    ...(headers.trim() === '' ? {} : { headers: parseHeaderLines(headers) }),
    models: parseModelList(models).map((id) => ({ id })),
  });
  const test = useMutation({
    mutationFn: () => api.testProvider(input()),
    onSuccess: setTestResult,
    onError: (error) =>
      setTestResult({ ok: false, models: [], error: { code: 'ERROR', message: errorMessage(error) } }),
  });
  const save = useMutation({
    mutationFn: () => api.createProvider(input()),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: PROVIDERS_KEY });
      void queryClient.invalidateQueries({ queryKey: MODELS_KEY });
      onDone();
    },
  });
  const nameValid = PROVIDER_NAME_PATTERN.test(name.trim());
  const valid = nameValid && isProviderUrl(baseUrl);

  return (
    <form
      className="settings-card provider-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (valid) save.mutate();
      }}
    >
      <label className="field">
        <span>{t('providers.preset')}</span>
        <select
          value={presetId}
          onChange={(event) => {
            const next = PROVIDER_PRESETS.find((item) => item.id === event.target.value);
            setPresetId(event.target.value);
            if (next !== undefined) {
              setName(next.id === 'custom' ? '' : next.id);
              setBaseUrl(next.baseUrl);
              setKind(next.kind);
              setModels(next.models.join(', '));
            }
            setTestResult(undefined);
          }}
        >
          {PROVIDER_PRESETS.map((item) => (
            <option key={item.id} value={item.id}>
              {item.id === 'custom' ? t('providers.custom') : item.name}
            </option>
          ))}
        </select>
      </label>
      <div className="field-row">
        <label className="field">
          <span>{t('providers.name')}</span>
          <input
            value={name}
            onChange={(event) => setName(event.target.value.toLowerCase())}
            required
            aria-invalid={name !== '' && !nameValid}
            aria-describedby="provider-name-hint"
          />
          <span id="provider-name-hint" className={name !== '' && !nameValid ? 'field-error' : 'field-hint'}>
            {t('providers.nameHint')}
          </span>
        </label>
        <label className="field">
          <span>{t('providers.kind')}</span>
          <select
            value={kind}
            onChange={(event) =>
              setKind(event.target.value === 'anthropic' ? 'anthropic' : 'openai-compatible')
            }
          >
            <option value="openai-compatible">OpenAI-compatible</option>
            <option value="anthropic">Anthropic</option>
          </select>
        </label>
      </div>
      <ConnectionFields
        baseUrl={baseUrl}
        onBaseUrl={setBaseUrl}
        apiKey={apiKey}
        onApiKey={setApiKey}
        headers={headers}
        onHeaders={setHeaders}
      />
      <label className="field">
        <span>{t('providers.models')}</span>
        <input value={models} onChange={(event) => setModels(event.target.value)} />
      </label>
      {testResult !== undefined && (
        <p className={testResult.ok ? 'test-ok' : 'field-error'} role="status">
          {testResult.ok
            ? t('providers.testOk', {
                milliseconds: testResult.latency_ms ?? 0,
                models: (testResult.models ?? []).slice(0, 6).join(', '),
              })
            : t('providers.testFailed', { reason: testResult.error?.message ?? '' })}
        </p>
      )}
      {save.isError && (
        <p className="field-error" role="alert">
          {errorMessage(save.error)}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onDone}>
          {t('nav.cancel')}
        </button>
        <button
          type="button"
          className="button"
          onClick={() => test.mutate()}
          disabled={!valid || test.isPending}
        >
          {test.isPending ? t('providers.testing') : t('providers.test')}
        </button>
        <button type="submit" className="button primary" disabled={!valid || save.isPending}>
          {t('providers.save')}
        </button>
      </div>
    </form>
  );
}

/** Settings → Models: providers (add with presets, test, remove) and the default model. */
export function ProvidersSection(): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const providers = useProviders();
  const models = useModels();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Provider>();
  const [editing, setEditing] = useState<string>();
  const [testResults, setTestResults] = useState<Record<string, TestOutcome>>({});
  const refresh = (): void => {
    void queryClient.invalidateQueries({ queryKey: PROVIDERS_KEY });
    void queryClient.invalidateQueries({ queryKey: MODELS_KEY });
  };
  const remove = useMutation({ mutationFn: (id: string) => api.deleteProvider(id), onSettled: refresh });
  const test = useMutation({
    mutationFn: (id: string) => api.testProvider(id),
    onSuccess: (result, id) => setTestResults((current) => ({ ...current, [id]: result })),
    onError: (error, id) =>
      setTestResults((current) => ({
        ...current,
        [id]: { ok: false, models: [], error: { code: 'ERROR', message: errorMessage(error) } },
      })),
  });
  const setDefault = useMutation({
    mutationFn: (modelId: string) => api.setDefaultModel(modelId),
    onSettled: refresh,
  });

  return (
    <div className="settings-widget" data-widget="providers">
      <p className="settings-intro">{t('providers.intro')}</p>
      {(models.data?.models.length ?? 0) > 0 && (
        <label className="field default-model">
          <span>{t('providers.defaultModel')}</span>
          <select
            value={models.data?.default_model ?? ''}
            onChange={(event) => setDefault.mutate(event.target.value)}
          >
            {models.data?.models.map((model) => (
              <option key={model.id} value={model.id}>
                {model.display_name} · {model.provider}
              </option>
            ))}
          </select>
        </label>
      )}
      <ul className="settings-list">
        {providers.data?.length === 0 && <li className="empty-state">{t('providers.none')}</li>}
        {providers.data?.map((provider) => {
          const result = testResults[provider.id];
          if (editing === provider.id) {
            return (
              <li key={provider.id}>
                <ProviderEditor provider={provider} onDone={() => setEditing(undefined)} />
              </li>
            );
          }
          const shown = provider.models.filter(
            (model) => model.hidden !== true && (model.kind ?? 'chat') === 'chat',
          );
          const hiddenCount = provider.models.length - shown.length;
          return (
            <li key={provider.id} className="settings-card provider-card">
              <div className="provider-line">
                <strong>{provider.name}</strong>
                <span className="badge">{provider.kind}</span>
                <span className="provider-url">{provider.base_url}</span>
              </div>
              <div className="provider-models">
                {shown.length === 0 ? t('providers.noModels') : shown.map((model) => model.id).join(', ')}
                {hiddenCount > 0 && (
                  <span className="field-hint"> · {t('providers.hiddenCount', { count: hiddenCount })}</span>
                )}
              </div>
              {result !== undefined && (
                <p className={result.ok ? 'test-ok' : 'field-error'} role="status">
                  {result.ok
                    ? t('providers.testOk', {
                        milliseconds: result.latency_ms ?? 0,
                        models: (result.models ?? []).slice(0, 6).join(', '),
                      })
                    : t('providers.testFailed', { reason: result.error?.message ?? '' })}
                </p>
              )}
              <CardActions
                actions={[
                  { label: t('providers.test'), onClick: () => test.mutate(provider.id) },
                  {
                    label: t('providers.edit'),
                    ariaLabel: `${t('providers.edit')} · ${provider.name}`,
                    onClick: () => setEditing(provider.id),
                  },
                ]}
                removeLabel={t('providers.remove')}
                onRemove={() => setRemoving(provider)}
              />
            </li>
          );
        })}
      </ul>
      {adding ? (
        <ProviderForm onDone={() => setAdding(false)} />
      ) : (
        <button type="button" className="button primary" onClick={() => setAdding(true)}>
          {t('providers.add')}
        </button>
      )}
      <ConfirmRemove
        item={removing}
        label={t('providers.remove')}
        message={t('providers.confirmRemove', { name: removing?.name ?? '' })}
        onRemove={(provider) => remove.mutate(provider.id)}
        onClose={() => setRemoving(undefined)}
      />
    </div>
  );
}
