import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SetupBundle, SetupImportPlan } from '@youyou/contracts';
import { useRef, useState, type ReactElement } from 'react';
import { errorMessage } from '../api/index.ts';
import { useTranslation, type Translate } from '../i18n/index.ts';
import { useServices } from '../services/index.ts';
import './setup-bundle.css';

/** Saves the bundle as a file named for the day it was made. */
function saveFile(bundle: SetupBundle): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(bundle, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `youyou-setup-${bundle.exported_at.slice(0, 10)}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

function countsText(
  t: Translate,
  plan: SetupImportPlan,
  key: 'setupBundle.counts' | 'setupBundle.imported',
): string {
  return t(key, {
    create: String(plan.counts.create),
    overwrite: String(plan.counts.overwrite),
    skip: String(plan.counts.skip),
  });
}

function PlanTable({ plan, t }: { plan: SetupImportPlan; t: Translate }): ReactElement {
  return (
    <table className="setup-bundle-plan" data-testid="setup-bundle-plan">
      <thead>
        <tr>
          <th scope="col">{t('setupBundle.column.section')}</th>
          <th scope="col">{t('setupBundle.column.name')}</th>
          <th scope="col">{t('setupBundle.column.action')}</th>
          <th scope="col">{t('setupBundle.column.note')}</th>
        </tr>
      </thead>
      <tbody>
        {plan.items.map((item, index) => (
          <tr key={index} data-section={item.section} data-action={item.action}>
            <td>{t(`setupBundle.section.${item.section}`)}</td>
            <td>{item.name}</td>
            <td>
              <span className={`badge setup-bundle-${item.action}`}>
                {t(`setupBundle.action.${item.action}`)}
              </span>
            </td>
            <td>{item.note ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Settings → Move your setup (spec §4.16): the whole setup exported as one file without secrets;
 * a file imported only after its preview — every item with create, overwrite or skip, and why —
 * has been seen and confirmed.
 */
export function SetupBundleSection(): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [bundle, setBundle] = useState<SetupBundle | undefined>(undefined);
  const exporting = useMutation({ mutationFn: () => api.exportSetupBundle(), onSuccess: saveFile });
  const preview = useMutation<SetupImportPlan, Error, File>({
    mutationFn: async (file) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(await file.text());
      } catch {
        throw new Error(t('setupBundle.notJson'));
      }
      // The server checks the whole file; a wrong one comes back as a structured 400.
      const plan = await api.previewSetupBundle(parsed as SetupBundle);
      setBundle(parsed as SetupBundle);
      return plan;
    },
  });
  const applying = useMutation<SetupImportPlan, Error, SetupBundle>({
    mutationFn: (chosen) => api.importSetupBundle(chosen),
    onSuccess: async () => {
      setBundle(undefined);
      preview.reset();
      await queryClient.invalidateQueries();
    },
  });
  const reset = (): void => {
    setBundle(undefined);
    preview.reset();
    if (input.current !== null) input.current.value = '';
  };
  const error = exporting.error ?? preview.error ?? applying.error;
  return (
    <div className="settings-widget setup-bundle-section" data-widget="setup-bundle">
      <p className="settings-intro">{t('setupBundle.intro')}</p>
      <p>
        <button
          type="button"
          className="button"
          disabled={exporting.isPending}
          onClick={() => exporting.mutate()}
        >
          {exporting.isPending ? t('setupBundle.exporting') : t('setupBundle.export')}
        </button>
      </p>
      <h3>{t('setupBundle.import')}</h3>
      <label className="field">
        <span>{t('setupBundle.file')}</span>
        <input
          ref={input}
          type="file"
          accept=".json,application/json"
          disabled={preview.isPending || applying.isPending}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            applying.reset();
            if (file !== undefined) preview.mutate(file);
          }}
        />
      </label>
      {error !== null && (
        <p className="field-error" role="alert">
          {t('setupBundle.refused', { reason: errorMessage(error) })}
        </p>
      )}
      {preview.data !== undefined && bundle !== undefined && (
        <div className="setup-bundle-preview" data-testid="setup-bundle-preview">
          <h3>{t('setupBundle.previewTitle')}</h3>
          <p role="status">{countsText(t, preview.data, 'setupBundle.counts')}</p>
          <PlanTable plan={preview.data} t={t} />
          <div className="dialog-actions">
            <button type="button" className="button" onClick={reset} disabled={applying.isPending}>
              {t('setupBundle.cancel')}
            </button>
            <button
              type="button"
              className="button primary"
              disabled={applying.isPending}
              onClick={() => applying.mutate(bundle)}
            >
              {applying.isPending ? t('setupBundle.importing') : t('setupBundle.apply')}
            </button>
          </div>
        </div>
      )}
      {applying.data !== undefined && (
        <p role="status" data-testid="setup-bundle-imported">
          {countsText(t, applying.data, 'setupBundle.imported')}
        </p>
      )}
    </div>
  );
}
