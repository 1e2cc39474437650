import { useEffect, useState, type ReactElement } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DOCUMENT_FORMATS, type DocumentFormat, type DocumentParsePolicy } from '@youyou/contracts';
import { errorMessage } from '../api/index.ts';
import { useTranslation } from '../i18n/index.ts';
import { useServices } from '../services/index.ts';

/** The parser chains a person picks from; `builtin` and `http-service` are the registry's ids. */
const CHAINS = {
  builtin: ['builtin'],
  'builtin-then-service': ['builtin', 'http-service'],
  'service-then-builtin': ['http-service', 'builtin'],
  service: ['http-service'],
} as const satisfies Record<string, readonly string[]>;
type ChainName = keyof typeof CHAINS;

function chainNameOf(chain: readonly string[] | undefined): ChainName {
  const found = (Object.keys(CHAINS) as ChainName[]).find(
    (name) => CHAINS[name].join(' ') === (chain ?? ['builtin']).join(' '),
  );
  return found ?? 'builtin';
}

interface Draft {
  url: string;
  timeoutSeconds: string;
  formats: Record<DocumentFormat, { chain: ChainName; crossValidate: boolean }>;
}

function draftOf(policy: DocumentParsePolicy): Draft {
  return {
    url: policy.service.url ?? '',
    timeoutSeconds: String(Math.round(policy.service.timeout_ms / 1000)),
    formats: Object.fromEntries(
      DOCUMENT_FORMATS.map((format) => [
        format,
        {
          chain: chainNameOf(policy.formats[format]?.chain),
          crossValidate: policy.formats[format]?.cross_validate ?? false,
        },
      ]),
    ) as Draft['formats'],
  };
}

function policyOf(draft: Draft, base: DocumentParsePolicy): DocumentParsePolicy {
  const formats: DocumentParsePolicy['formats'] = {};
  for (const format of DOCUMENT_FORMATS) {
    const { chain, crossValidate } = draft.formats[format];
    // A format on the default (built-in only, no comparison) is left out: it follows the default.
    if (chain !== 'builtin' || crossValidate)
      formats[format] = { chain: [...CHAINS[chain]], cross_validate: crossValidate };
  }
  return {
    ...base,
    formats,
    service: {
      url: draft.url.trim() === '' ? null : draft.url.trim(),
      timeout_ms: Math.round(Number(draft.timeoutSeconds) * 1000),
    },
  };
}

/**
 * A project's parse policy (spec §4.11 "解析策略"): per format, which parsers read a file and in
 * what order, whether the first two are compared (recorded, never a silent choice), and the
 * external parsing service's URL. The server checks the policy; its refusal is shown as it is.
 */
export function ParsePolicyEditor({ projectId }: { projectId: string }): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const key = ['parse-policy', projectId];
  const policy = useQuery({ queryKey: key, queryFn: () => api.getParsePolicy(projectId) });
  const [draft, setDraft] = useState<Draft | undefined>(undefined);
  useEffect(() => {
    if (policy.data !== undefined) setDraft(draftOf(policy.data));
  }, [policy.data]);
  const save = useMutation({
    mutationFn: (next: DocumentParsePolicy) => api.setParsePolicy(projectId, next),
    onSuccess: (saved) => queryClient.setQueryData(key, saved),
  });
  if (policy.error !== null) return <p className="field-error">{errorMessage(policy.error)}</p>;
  if (draft === undefined || policy.data === undefined) return <p>{t('parsePolicy.loading')}</p>;
  const base = policy.data;
  const setFormat = (format: DocumentFormat, change: Partial<Draft['formats'][DocumentFormat]>) =>
    setDraft({ ...draft, formats: { ...draft.formats, [format]: { ...draft.formats[format], ...change } } });
  return (
    <form
      className="parse-policy"
      data-testid="parse-policy"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(policyOf(draft, base));
      }}
    >
      <h3>{t('parsePolicy.title')}</h3>
      <p className="settings-hint">{t('parsePolicy.intro')}</p>
      <label>
        {t('parsePolicy.serviceUrl')}{' '}
        <input
          type="url"
          value={draft.url}
          placeholder="http://127.0.0.1:8010"
          onChange={(event) => setDraft({ ...draft, url: event.target.value })}
          data-testid="parse-policy-url"
        />
      </label>
      <label>
        {t('parsePolicy.timeout')}{' '}
        <input
          type="number"
          min={1}
          max={600}
          value={draft.timeoutSeconds}
          onChange={(event) => setDraft({ ...draft, timeoutSeconds: event.target.value })}
        />
      </label>
      <table>
        <thead>
          <tr>
            <th>{t('parsePolicy.format')}</th>
            <th>{t('parsePolicy.chain')}</th>
            <th>{t('parsePolicy.compare')}</th>
          </tr>
        </thead>
        <tbody>
          {DOCUMENT_FORMATS.map((format) => (
            <tr key={format}>
              <td>{format}</td>
              <td>
                <select
                  value={draft.formats[format].chain}
                  onChange={(event) => setFormat(format, { chain: event.target.value as ChainName })}
                  aria-label={t('parsePolicy.chainOf', { format })}
                  data-testid={`parse-policy-chain-${format}`}
                >
                  {(Object.keys(CHAINS) as ChainName[]).map((name) => (
                    <option key={name} value={name}>
                      {t(`parsePolicy.chain.${name}`)}
                    </option>
                  ))}
                </select>
              </td>
              <td>
                <input
                  type="checkbox"
                  checked={draft.formats[format].crossValidate}
                  disabled={CHAINS[draft.formats[format].chain].length < 2}
                  onChange={(event) => setFormat(format, { crossValidate: event.target.checked })}
                  aria-label={t('parsePolicy.compareOf', { format })}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="settings-actions">
        <button type="submit" className="button" disabled={save.isPending}>
          {t('parsePolicy.save')}
        </button>
        {save.isSuccess && <span role="status">{t('parsePolicy.saved')}</span>}
        {save.error !== null && (
          <span className="field-error" role="alert">
            {errorMessage(save.error)}
          </span>
        )}
      </div>
    </form>
  );
}
