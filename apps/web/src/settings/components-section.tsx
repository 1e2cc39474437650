import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactElement } from 'react';
import { errorMessage } from '../api/index.ts';
import type { ComponentEntry, ComponentKind, ComponentLayer } from '@youyou/contracts';
import { useServices } from '../services/index.ts';
import { useTranslation, type MessageKey } from '../i18n/index.ts';
import { useNavigation } from '../navigation/index.ts';
import { COMPONENTS_KEY, useComponents, useProjects } from '../queries/index.ts';
import { ConfirmDialog } from '../ui/index.ts';
import type { ComponentFormValues } from './component-draft.ts';
import { ComponentForm } from './component-form.tsx';

const KINDS: readonly { kind: ComponentKind; label: MessageKey; singular: MessageKey }[] = [
  { kind: 'tool', label: 'components.tools', singular: 'components.tool' },
  { kind: 'skill', label: 'components.skills', singular: 'components.skill' },
  { kind: 'plugin', label: 'components.plugins', singular: 'components.plugin' },
];
const LAYER_LABELS: Record<ComponentLayer, MessageKey> = {
  programmatic: 'components.programmatic',
  global: 'components.global',
  project: 'components.project',
};

type Editing = { kind: ComponentKind; initial?: ComponentFormValues };

/**
 * Settings → Components (spec §9): tools, skills and plugins with their source and what overrides
 * them; create at the global or project layer, edit, delete, enable/disable plugins; and the
 * diagnostics of folders that did not load.
 */
export function ComponentsSection(): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const projectId = useNavigation((state) => state.projectId);
  const projects = useProjects();
  const project = projects.data?.find((item) => item.id === projectId);
  const listing = useComponents(projectId);
  const [editing, setEditing] = useState<Editing>();
  const [deleting, setDeleting] = useState<ComponentEntry>();
  const refresh = (): void => void queryClient.invalidateQueries({ queryKey: COMPONENTS_KEY });
  const remove = useMutation({
    mutationFn: (entry: ComponentEntry) =>
      api.deleteComponent(
        entry.kind,
        entry.name,
        entry.layer === 'project' ? 'project' : 'global',
        projectId,
      ),
    onSettled: refresh,
  });
  const toggle = useMutation({
    mutationFn: (entry: ComponentEntry) =>
      api.setPluginEnabled(
        entry.name,
        !entry.enabled,
        entry.layer === 'project' ? 'project' : 'global',
        projectId,
      ),
    onSettled: refresh,
  });
  const edit = useMutation({
    mutationFn: async (entry: ComponentEntry) => {
      const layer = entry.layer === 'project' ? 'project' : 'global';
      const document = await api.readComponent(entry.kind, entry.name, layer, projectId);
      const execution = document.frontMatter['execution'] as { command?: unknown } | undefined;
      const parameters = Array.isArray(document.frontMatter['parameters'])
        ? (
            document.frontMatter['parameters'] as {
              name?: unknown;
              type?: unknown;
              description?: unknown;
              required?: unknown;
            }[]
          )
            .map(
              (item) =>
                `${String(item.name)}${item.required === true ? '*' : ''}:${String(item.type ?? 'string')}:${String(item.description ?? '')}`,
            )
            .join('\n')
        : '';
      setEditing({
        kind: entry.kind,
        initial: {
          kind: entry.kind,
          name: entry.name,
          layer,
          description:
            typeof document.frontMatter['description'] === 'string'
              ? document.frontMatter['description']
              : '',
          body: document.body,
          command: typeof execution?.command === 'string' ? execution.command : '',
          mutating: document.frontMatter['mutating'] === true,
          // Already on disk: the warning was confirmed when it was created.
          acknowledged: true,
          script: '',
          parameters,
        },
      });
    },
  });

  const components = listing.data?.components ?? [];
  const diagnostics = listing.data?.diagnostics ?? [];

  return (
    <div className="settings-widget" data-widget="components">
      <p className="settings-intro">{t('components.intro')}</p>
      {listing.isError && <p className="field-error">{errorMessage(listing.error)}</p>}
      {(edit.isError || remove.isError || toggle.isError) && (
        <p className="field-error" role="alert">
          {errorMessage(edit.error ?? remove.error ?? toggle.error)}
        </p>
      )}
      {KINDS.map(({ kind, label, singular }) => {
        const entries = components.filter((entry) => entry.kind === kind);
        return (
          <div key={kind} className="component-group">
            <div className="component-group-header">
              <h3>{t(label)}</h3>
              <button type="button" className="button" onClick={() => setEditing({ kind })}>
                {t('components.create', { kind: t(singular) })}
              </button>
            </div>
            {editing?.kind === kind && (
              <ComponentForm
                kind={kind}
                projectId={projectId}
                projectHasDirectory={project?.directory !== undefined && project.directory !== null}
                {...(editing.initial === undefined ? {} : { initial: editing.initial })}
                onDone={() => setEditing(undefined)}
              />
            )}
            <ul className="component-list" aria-label={t(label)}>
              {entries.length === 0 && <li className="component-empty">{t('components.none')}</li>}
              {entries.map((entry) => (
                <li
                  key={`${entry.layer}:${entry.name}`}
                  className={`component-row${entry.overriddenBy !== undefined ? ' overridden' : ''}`}
                  data-testid={`component-${entry.kind}-${entry.name}`}
                >
                  <div className="component-main">
                    <span className="component-name">{entry.name}</span>
                    <span className={`badge layer-${entry.layer}`} title={t('components.source')}>
                      {t(LAYER_LABELS[entry.layer])}
                    </span>
                    {entry.overriddenBy !== undefined && (
                      <span className="badge muted">
                        {t('components.overriddenBy', { layer: t(LAYER_LABELS[entry.overriddenBy]) })}
                      </span>
                    )}
                    <span className="component-description">{entry.description}</span>
                  </div>
                  <div className="component-actions">
                    {entry.kind === 'plugin' && entry.layer !== 'programmatic' && (
                      <label className="switch">
                        <input
                          type="checkbox"
                          checked={entry.enabled}
                          onChange={() => toggle.mutate(entry)}
                        />
                        <span>{t('components.enabled')}</span>
                      </label>
                    )}
                    {entry.layer !== 'programmatic' && (
                      <>
                        <button
                          type="button"
                          className="button ghost"
                          onClick={() => edit.mutate(entry)}
                          aria-label={`${t('components.edit')} ${entry.name}`}
                        >
                          {t('components.edit')}
                        </button>
                        <button
                          type="button"
                          className="button ghost danger"
                          onClick={() => setDeleting(entry)}
                          aria-label={`${t('components.delete')} ${entry.name}`}
                        >
                          {t('components.delete')}
                        </button>
                      </>
                    )}
                  </div>
                </li>
              ))}
            </ul>
          </div>
        );
      })}
      <div className="component-group">
        <h3>{t('components.diagnostics')}</h3>
        {diagnostics.length === 0 ? (
          <p className="component-empty">{t('components.noDiagnostics')}</p>
        ) : (
          <ul className="diagnostic-list">
            {diagnostics.map((diagnostic, index) => (
              <li
                key={`${diagnostic.path}:${String(index)}`}
                className={`diagnostic ${diagnostic.severity ?? 'error'}`}
              >
                <span className="badge">
                  {diagnostic.severity === 'warning' ? t('components.warning') : t('components.error')}
                </span>
                <code>
                  {diagnostic.path}
                  {diagnostic.line !== undefined && ` (${t('components.line', { line: diagnostic.line })})`}
                </code>
                <span>{diagnostic.reason}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
      <ConfirmDialog
        open={deleting !== undefined}
        title={t('components.delete')}
        message={
          deleting === undefined
            ? ''
            : t('components.confirmDelete', {
                kind: t(`components.${deleting.kind}`),
                name: deleting.name,
                layer: t(LAYER_LABELS[deleting.layer]),
              })
        }
        confirmLabel={t('components.delete')}
        cancelLabel={t('nav.cancel')}
        danger
        onCancel={() => setDeleting(undefined)}
        onConfirm={() => {
          if (deleting !== undefined) remove.mutate(deleting);
          setDeleting(undefined);
        }}
      />
    </div>
  );
}
