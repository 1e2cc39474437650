import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactElement } from 'react';
import { errorMessage } from '../api/index.ts';
import type { ComponentKind } from '@youyou/contracts';
import { useServices } from '../services/index.ts';
import { useTranslation, type MessageKey } from '../i18n/index.ts';
import { COMPONENTS_KEY } from '../queries/index.ts';
import {
  draftOf,
  needsTrustWarning,
  previewEntry,
  validateComponentForm,
  type ComponentFormValues,
} from './component-draft.ts';

export interface ComponentFormProps {
  kind: ComponentKind;
  projectId: string | undefined;
  projectHasDirectory: boolean;
  /** Editing: the stored values; the name and layer are fixed. */
  initial?: ComponentFormValues;
  onDone: () => void;
}

const KIND_LABELS: Record<ComponentKind, MessageKey> = {
  tool: 'components.tools',
  skill: 'components.skills',
  plugin: 'components.plugins',
};

/** Creates or edits a tool, skill or plugin folder; shows the index.md it will write. */
export function ComponentForm({
  kind,
  projectId,
  projectHasDirectory,
  initial,
  onDone,
}: ComponentFormProps): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<ComponentFormValues>(
    initial ?? {
      kind,
      name: '',
      layer: 'global',
      description: '',
      body: '',
      command: './run.sh',
      script: '#!/bin/sh\n# Reads the call as JSON on stdin; prints the result.\ncat',
      parameters: '',
      mutating: false,
      acknowledged: false,
    },
  );
  const [touched, setTouched] = useState(false);
  const problems = validateComponentForm(values, initial === undefined);
  const save = useMutation({
    mutationFn: async () => {
      const draft = draftOf(values);
      if (initial === undefined) return api.createComponent(draft, projectId);
      return api.updateComponent(
        values.kind,
        values.name,
        values.layer,
        { frontMatter: draft.frontMatter ?? {}, body: draft.body ?? '' },
        projectId,
      );
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: COMPONENTS_KEY });
      onDone();
    },
  });
  const set = (changes: Partial<ComponentFormValues>): void =>
    setValues((current) => ({ ...current, ...changes }));
  const problemText = (field: keyof ComponentFormValues): string | undefined => {
    const problem = problems[field];
    if (!touched || problem === undefined) return undefined;
    if (field === 'name' && problem === 'invalid') return t('components.nameInvalid');
    return problem === 'required' ? t('components.required') : t('components.nameInvalid');
  };
  const bodyLabel: MessageKey =
    kind === 'skill' ? 'components.body' : kind === 'tool' ? 'components.toolBody' : 'components.pluginBody';

  return (
    <form
      className="settings-card component-form"
      aria-label={t('components.create', { kind: t(KIND_LABELS[kind]) })}
      onSubmit={(event) => {
        event.preventDefault();
        setTouched(true);
        if (Object.keys(problems).length === 0) save.mutate();
      }}
    >
      <div className="field-row">
        <label className="field">
          <span>{t('components.name')}</span>
          <input
            value={values.name}
            onChange={(event) => set({ name: event.target.value })}
            disabled={initial !== undefined}
            aria-invalid={problemText('name') !== undefined}
            name="component-name"
          />
          {problemText('name') !== undefined && <span className="field-error">{problemText('name')}</span>}
        </label>
        <label className="field">
          <span>{t('components.layer')}</span>
          <select
            value={values.layer}
            onChange={(event) => set({ layer: event.target.value === 'project' ? 'project' : 'global' })}
            disabled={initial !== undefined}
          >
            <option value="global">{t('components.global')}</option>
            <option value="project" disabled={!projectHasDirectory}>
              {t('components.project')}
            </option>
          </select>
        </label>
      </div>
      {kind !== 'tool' && (
        <label className="field">
          <span>{t('components.description')}</span>
          <input
            value={values.description}
            onChange={(event) => set({ description: event.target.value })}
            name="component-description"
          />
          {problemText('description') !== undefined && (
            <span className="field-error">{problemText('description')}</span>
          )}
        </label>
      )}
      <label className="field">
        <span>{t(bodyLabel)}</span>
        <textarea
          value={values.body}
          onChange={(event) => set({ body: event.target.value })}
          name="component-body"
        />
        {problemText('body') !== undefined && <span className="field-error">{problemText('body')}</span>}
      </label>
      {kind === 'tool' && (
        <>
          <label className="field">
            <span>{t('components.parameters')}</span>
            <textarea
              value={values.parameters}
              onChange={(event) => set({ parameters: event.target.value })}
              placeholder="text*:string:The text to count."
            />
            {problemText('parameters') !== undefined && (
              <span className="field-error">{problemText('parameters')}</span>
            )}
          </label>
          <label className="field">
            <span>{t('components.command')}</span>
            <input value={values.command} onChange={(event) => set({ command: event.target.value })} />
            {problemText('command') !== undefined && (
              <span className="field-error">{problemText('command')}</span>
            )}
          </label>
          <label className="field checkbox-field">
            <input
              type="checkbox"
              checked={values.mutating}
              onChange={(event) => set({ mutating: event.target.checked, acknowledged: false })}
              name="component-mutating"
            />
            <span>{t('components.mutating')}</span>
          </label>
          {initial === undefined && (
            <label className="field">
              <span>{t('components.script')}</span>
              <textarea value={values.script} onChange={(event) => set({ script: event.target.value })} />
            </label>
          )}
        </>
      )}
      {initial === undefined && needsTrustWarning(values) && (
        <div className="trust-warning" role="alert" data-testid="trust-warning">
          <p>{t(kind === 'plugin' ? 'components.trustPlugin' : 'components.trustMutating')}</p>
          <label className="checkbox-field">
            <input
              type="checkbox"
              checked={values.acknowledged}
              onChange={(event) => set({ acknowledged: event.target.checked })}
              name="component-acknowledged"
            />
            <span>{t('components.trustConfirm')}</span>
          </label>
          {problemText('acknowledged') !== undefined && (
            <span className="field-error">{t('components.trustRequired')}</span>
          )}
        </div>
      )}
      <details className="entry-preview">
        <summary>{t('components.preview')}</summary>
        <pre>{previewEntry(values)}</pre>
      </details>
      {save.isError && (
        <p className="field-error" role="alert">
          {errorMessage(save.error)}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onDone}>
          {t('components.cancel')}
        </button>
        <button type="submit" className="button primary" disabled={save.isPending}>
          {t('components.save')}
        </button>
      </div>
    </form>
  );
}
