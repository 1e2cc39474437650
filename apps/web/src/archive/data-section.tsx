import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type ReactElement } from 'react';
import type { ArchiveImportPreview, ArchiveImportResult } from '@youyou/contracts';
import { errorMessage } from '../api/index.ts';
import { useTranslation } from '../i18n/index.ts';
import { useProjects } from '../queries/index.ts';
import { useServices } from '../services/index.ts';
import { download } from './download.ts';
import { ImportPreview } from './import-preview.tsx';

/**
 * Settings → Data (spec §4.16): everything as one archive, and importing an archive — into new
 * projects (as it was) or into a project that exists. A chosen archive is read first and what it
 * will create is shown (a project whose name is taken here comes in as a copy named "Name (2)");
 * the person imports or cancels (decision 0048). A refused archive says why and imports nothing.
 */
export function DataSection(): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const projects = useProjects();
  const [target, setTarget] = useState('');
  const [file, setFile] = useState<File | undefined>();
  const [cancelled, setCancelled] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const targetOption = target === '' ? {} : { projectId: target };
  const clearFile = (): void => {
    setFile(undefined);
    if (input.current !== null) input.current.value = '';
  };
  // Reading the archive first: nothing is written until the person has seen what will be created.
  const previewing = useMutation<ArchiveImportPreview, Error, File>({
    mutationFn: (chosen) => api.previewArchiveImport(chosen, targetOption),
    onError: clearFile,
  });
  const importing = useMutation<ArchiveImportResult, Error, File>({
    mutationFn: (chosen) => api.importArchive(chosen, { ...targetOption, onNameConflict: 'copy' }),
    onSuccess: async () => {
      await queryClient.invalidateQueries();
    },
    onSettled: () => {
      clearFile();
      previewing.reset();
    },
  });
  const choose = (chosen: File): void => {
    importing.reset();
    setCancelled(false);
    setFile(chosen);
    previewing.mutate(chosen);
  };
  const failure = previewing.error ?? importing.error;
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
        <select
          value={target}
          onChange={(event) => {
            setTarget(event.target.value);
            clearFile();
            previewing.reset();
          }}
        >
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
          disabled={importing.isPending || previewing.isPending}
          onChange={(event) => {
            const chosen = event.currentTarget.files?.[0];
            if (chosen !== undefined) choose(chosen);
          }}
        />
      </label>
      {previewing.isPending && <p role="status">{t('archive.checking')}</p>}
      {previewing.data !== undefined && file !== undefined && (
        <ImportPreview
          preview={previewing.data}
          busy={importing.isPending}
          t={t}
          onImport={() => importing.mutate(file)}
          onCancel={() => {
            clearFile();
            previewing.reset();
            setCancelled(true);
          }}
        />
      )}
      {importing.isPending && <p role="status">{t('archive.importing')}</p>}
      {cancelled && (
        <p role="status" data-testid="archive-cancelled">
          {t('archive.cancelled')}
        </p>
      )}
      {failure !== null && (
        <p className="field-error" role="alert">
          {t('archive.refused', { reason: errorMessage(failure) })}
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
