import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactElement } from 'react';
import type { Provider, ProviderModel, ProviderTest, ProviderUpdate } from '@youyou/contracts';
import { errorMessage } from '../api/index.ts';
import { useTranslation, type MessageKey } from '../i18n/index.ts';
import { MODELS_KEY, PROVIDERS_KEY } from '../queries/index.ts';
import { useServices } from '../services/index.ts';
import { ModelPricingFields } from './model-pricing-fields.tsx';
import { ConnectionFields, headerLines, isProviderUrl, parseHeaderLines } from './connection-fields.tsx';

type Capability = 'tools' | 'vision' | 'reasoning' | 'documents';
const CAPABILITIES: readonly { key: Capability; label: MessageKey }[] = [
  { key: 'tools', label: 'providers.capability.tools' },
  { key: 'vision', label: 'providers.capability.vision' },
  { key: 'reasoning', label: 'providers.capability.reasoning' },
  { key: 'documents', label: 'providers.capability.documents' },
];

function withCapability(model: ProviderModel, key: Capability, value: boolean): ProviderModel {
  return { ...model, capabilities: { ...model.capabilities, [key]: value } };
}

/**
 * Editing a saved provider: its URL, a new key (write-only: the saved one is never shown), and
 * its models — hide one from the pickers, say what it can do (tools, images, reasoning,
 * documents) and its context window, add one by hand, or ask the server again.
 */
export function ProviderEditor({
  provider,
  onDone,
}: {
  provider: Provider;
  onDone: () => void;
}): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const [baseUrl, setBaseUrl] = useState(provider.base_url);
  const [apiKey, setApiKey] = useState('');
  const [removeKey, setRemoveKey] = useState(false);
  const [headers, setHeaders] = useState(headerLines(provider.headers));
  const [testResult, setTestResult] = useState<ProviderTest>();
  const [models, setModels] = useState<ProviderModel[]>(provider.models);
  const [newModel, setNewModel] = useState('');
  const invalidate = (): void => {
    void queryClient.invalidateQueries({ queryKey: PROVIDERS_KEY });
    void queryClient.invalidateQueries({ queryKey: MODELS_KEY });
  };
  const changes = (): ProviderUpdate => ({
    ...(baseUrl.trim() === provider.base_url ? {} : { base_url: baseUrl.trim() }),
    ...(removeKey ? { api_key: null } : apiKey === '' ? {} : { api_key: apiKey }),
    ...(headers === headerLines(provider.headers) ? {} : { headers: parseHeaderLines(headers) }),
    models,
  });
  const save = useMutation({
    mutationFn: () => api.updateProvider(provider.id, changes()),
    onSuccess: () => {
      invalidate();
      onDone();
    },
  });
  const refresh = useMutation({
    // Unsaved edits go first, so a refresh never drops them.
    mutationFn: async () => {
      await api.updateProvider(provider.id, changes());
      return api.refreshProvider(provider.id);
    },
    onSuccess: (refreshed) => {
      setModels(refreshed.models);
      invalidate();
    },
  });
  // Tests what is in the form: the edits are saved first, as a refresh does.
  const test = useMutation({
    mutationFn: async () => {
      await api.updateProvider(provider.id, changes());
      invalidate();
      return api.testProvider(provider.id);
    },
    onMutate: () => setTestResult(undefined),
    onSuccess: setTestResult,
  });
  const update = (index: number, next: ProviderModel): void =>
    setModels((current) => current.map((model, at) => (at === index ? next : model)));
  const valid = isProviderUrl(baseUrl);

  return (
    <form
      className="settings-card provider-form provider-editor"
      aria-label={t('providers.editTitle', { name: provider.name })}
      onSubmit={(event) => {
        event.preventDefault();
        if (valid) save.mutate();
      }}
    >
      <ConnectionFields
        baseUrl={baseUrl}
        onBaseUrl={setBaseUrl}
        apiKey={apiKey}
        onApiKey={setApiKey}
        keyDisabled={removeKey}
        keyPlaceholder={provider.has_api_key ? t('providers.apiKeySaved') : ''}
        headers={headers}
        onHeaders={setHeaders}
      />
      {provider.has_api_key && (
        <label className="checkbox-field">
          <input
            type="checkbox"
            checked={removeKey}
            onChange={(event) => setRemoveKey(event.target.checked)}
          />
          <span>{t('providers.removeKey')}</span>
        </label>
      )}
      <fieldset className="provider-model-table">
        <legend>{t('providers.modelsTitle')}</legend>
        {models.length === 0 && <p className="field-hint">{t('providers.noModels')}</p>}
        {models.map((model, index) => (
          <div key={model.id} className={`provider-model-row${model.hidden === true ? ' hidden-model' : ''}`}>
            <span className="provider-model-id" title={model.id}>
              {model.id}
              {(model.kind ?? 'chat') !== 'chat' && <span className="badge">{model.kind}</span>}
            </span>
            <label className="checkbox-field">
              <input
                type="checkbox"
                checked={model.hidden !== true}
                aria-label={t('providers.showModel', { model: model.id })}
                onChange={(event) => update(index, { ...model, hidden: !event.target.checked })}
              />
              <span>{t('providers.shown')}</span>
            </label>
            {CAPABILITIES.map(({ key, label }) => (
              <label key={key} className="checkbox-field">
                <input
                  type="checkbox"
                  checked={model.capabilities?.[key] === true}
                  aria-label={`${t(label)} · ${model.id}`}
                  onChange={(event) => update(index, withCapability(model, key, event.target.checked))}
                />
                <span>{t(label)}</span>
              </label>
            ))}
            <label className="field compact">
              <span>{t('providers.contextWindow')}</span>
              <input
                type="number"
                min={1}
                value={model.context_window ?? ''}
                aria-label={`${t('providers.contextWindow')} · ${model.id}`}
                onChange={(event) => {
                  const value = Number.parseInt(event.target.value, 10);
                  const { context_window: _dropped, ...rest } = model;
                  update(
                    index,
                    Number.isFinite(value) && value > 0 ? { ...rest, context_window: value } : rest,
                  );
                }}
              />
            </label>
            <ModelPricingFields model={model} onChange={(changed) => update(index, changed)} />
          </div>
        ))}
        <div className="field-row">
          <input
            className="input"
            value={newModel}
            placeholder={t('providers.addModelPlaceholder')}
            aria-label={t('providers.addModel')}
            onChange={(event) => setNewModel(event.target.value)}
          />
          <button
            type="button"
            className="button"
            disabled={newModel.trim() === '' || models.some((model) => model.id === newModel.trim())}
            onClick={() => {
              setModels((current) => [...current, { id: newModel.trim() }]);
              setNewModel('');
            }}
          >
            {t('providers.addModel')}
          </button>
        </div>
      </fieldset>
      {testResult !== undefined && (
        <p className={testResult.ok ? 'test-ok' : 'field-error'} role="status">
          {testResult.ok
            ? t('providers.testOk', {
                milliseconds: testResult.latency_ms,
                models: testResult.models.slice(0, 6).join(', '),
              })
            : t('providers.testFailed', { reason: testResult.error?.message ?? '' })}
        </p>
      )}
      {(save.isError || refresh.isError || test.isError) && (
        <p className="field-error" role="alert">
          {errorMessage(save.error ?? refresh.error ?? test.error)}
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
        <button
          type="button"
          className="button"
          onClick={() => refresh.mutate()}
          disabled={refresh.isPending}
        >
          {refresh.isPending ? t('providers.refreshing') : t('providers.refresh')}
        </button>
        <button type="submit" className="button primary" disabled={!valid || save.isPending}>
          {t('providers.save')}
        </button>
      </div>
    </form>
  );
}
