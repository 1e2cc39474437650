import { useMutation, useQuery } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { errorMessage } from '../api/index.ts';
import { useServices } from '../services/index.ts';
import { useTranslation } from '../i18n/index.ts';
import { SparkIcon } from '../icons/index.ts';
import { useNavigation } from '../navigation/index.ts';
import { MODELS_KEY, PROVIDERS_KEY } from '../queries/index.ts';
import './first-run.css';

export const OLLAMA_BASE_URL = 'http://127.0.0.1:11434/v1';

/**
 * What the conversation shows with no provider configured: how to add one, and a one-click
 * Ollama setup when the server finds one running on this machine.
 */
export function FirstRun(): ReactElement {
  const t = useTranslation();
  const { api, queryClient } = useServices();
  const openSettings = useNavigation((state) => state.openSettings);
  const ollama = useQuery({
    queryKey: ['ollama'],
    queryFn: () => api.detectOllama(),
    retry: false,
    staleTime: 60_000,
  });
  const addOllama = useMutation({
    mutationFn: () =>
      api.createProvider({
        name: 'ollama',
        kind: 'openai-compatible',
        base_url: ollama.data?.base_url ?? OLLAMA_BASE_URL,
        models: (ollama.data?.models ?? []).map((id) => ({ id })),
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: PROVIDERS_KEY });
      void queryClient.invalidateQueries({ queryKey: MODELS_KEY });
    },
  });
  return (
    <section className="first-run" aria-labelledby="first-run-title" data-testid="first-run">
      <SparkIcon size={28} />
      <h2 id="first-run-title">{t('firstRun.title')}</h2>
      <p>{t('firstRun.body')}</p>
      {ollama.data?.found === true ? (
        <div className="first-run-ollama">
          <p>{t('firstRun.ollamaFound', { count: ollama.data.models.length })}</p>
          <button
            type="button"
            className="button primary"
            onClick={() => addOllama.mutate()}
            disabled={addOllama.isPending}
          >
            {t('firstRun.ollamaAdd')}
          </button>
          {addOllama.isError && <p className="field-error">{errorMessage(addOllama.error)}</p>}
        </div>
      ) : ollama.isFetched ? (
        <p className="first-run-hint">
          {t('firstRun.ollamaMissing', { url: ollama.data?.base_url ?? OLLAMA_BASE_URL })}
        </p>
      ) : null}
      <button type="button" className="button" onClick={() => openSettings('providers')}>
        {t('firstRun.openSettings')}
      </button>
    </section>
  );
}
