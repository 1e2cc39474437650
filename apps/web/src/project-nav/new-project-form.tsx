import { useMutation } from '@tanstack/react-query';
import { useState, type ReactElement } from 'react';
import { errorMessage } from '../api/index.ts';
import type { Project } from '@youyou/contracts';
import { useServices } from '../services/index.ts';
import { useTranslation } from '../i18n/index.ts';
import { PROJECTS_KEY } from '../queries/index.ts';

/** The inline form that creates a project (name, optional workspace directory). */
export function NewProjectForm({ onDone }: { onDone: (project: Project | undefined) => void }): ReactElement {
  const t = useTranslation();
  const { api, queryClient } = useServices();
  const [name, setName] = useState('');
  const [directory, setDirectory] = useState('');
  const create = useMutation({
    mutationFn: () =>
      api.createProject({
        name: name.trim(),
        ...(directory.trim() === '' ? {} : { directory: directory.trim() }),
      }),
    onSuccess: (project) => {
      void queryClient.invalidateQueries({ queryKey: PROJECTS_KEY });
      onDone(project);
    },
  });
  return (
    <form
      className="new-project"
      onSubmit={(event) => {
        event.preventDefault();
        if (name.trim() !== '') create.mutate();
      }}
    >
      <label className="field">
        <span>{t('nav.projectName')}</span>
        <input value={name} onChange={(event) => setName(event.target.value)} autoFocus required />
      </label>
      <label className="field">
        <span>{t('nav.projectDirectory')}</span>
        <input
          value={directory}
          onChange={(event) => setDirectory(event.target.value)}
          placeholder="/home/me/work"
        />
      </label>
      {create.isError && (
        <p className="field-error" role="alert">
          {errorMessage(create.error)}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={() => onDone(undefined)}>
          {t('nav.cancel')}
        </button>
        <button type="submit" className="button primary" disabled={create.isPending || name.trim() === ''}>
          {t('nav.create')}
        </button>
      </div>
    </form>
  );
}
