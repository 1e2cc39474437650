import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type ReactElement } from 'react';
import type { ArchiveImportResult } from '@youyou/contracts';
import { errorMessage } from '../api/index.ts';
import { useTranslation } from '../i18n/index.ts';
import { useProjects } from '../queries/index.ts';
import { useServices } from '../services/index.ts';
import { download } from './download.ts';

/**
 * Settings → Data (spec §4.16): everything as one archive, and importing an archive — into new
 * projects (as it was) or into a project that exists. A refused archive says why and imports
 * nothing.
 */
export function DataSection(): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const projects = useProjects();
  const [target, setTarget] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const importing = useMutation<ArchiveImportResult, Error, File>({
    mutationFn: (file) => api.importArchive(file, target === '' ? {} : { projectId: target }),
    onSuccess: async () => {
      await queryClient.invalidateQueries();
    },
    onSettled: () => {
      if (input.current !== null) input.current.value = '';
    },
  });
  return (
    <div className="settings-widget" data-widget="data">
      <p className="settings-intro">{t('archive.intro')}</p>
      <p>
        <button type="button" className="button" onClick={() => download(api.archiveUrl('everything'))}>
          {t('archive.exportEverything')}
        </button>
      </p>
      <h3>{t('archive.import')}</h3>
      <label className="field">
        <span>{t('archive.importInto')}</span>
        <select value={target} onChange={(event) => setTarget(event.target.value)}>
          <option value="">{t('archive.asNewProjects')}</option>
          {(projects.data ?? []).map((project) => (
            <option key={project.id} value={project.id}>
              {project.name}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>{t('archive.file')}</span>
        <input
          ref={input}
          type="file"
          accept=".zip,application/zip"
          disabled={importing.isPending}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            if (file !== undefined) importing.mutate(file);
          }}
        />
      </label>
      {importing.isPending && <p role="status">{t('archive.importing')}</p>}
      {importing.isError && (
        <p className="field-error" role="alert">
          {t('archive.refused', { reason: errorMessage(importing.error) })}
        </p>
      )}
      {importing.isSuccess && (
        <p role="status" data-testid="archive-imported">
          {t('archive.imported', {
            conversations: String(importing.data.conversations.length),
            projects: String(importing.data.projects.length),
          })}
          {(importing.data.counts['memories'] ?? 0) > 0 &&
            ` ${t('archive.importedMemories', { memories: String(importing.data.counts['memories']) })}`}
        </p>
      )}
    </div>
  );
}
