import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ExtensionPermissions,
  ExtensionPreview,
  ExtensionProblem,
  InstalledExtension,
  RegistryEntry,
} from '@youyou/contracts';
import { useState, type ReactElement } from 'react';
import { errorMessage } from '../api/index.ts';
import { useResolvedLanguage, useTranslation, type MessageKey } from '../i18n/index.ts';
import { useServices } from '../services/index.ts';
import { CardActions, ConfirmRemove } from './card-actions.tsx';

const EXTENSIONS_KEY = ['extensions'] as const;
const REGISTRY_KEY = ['registry'] as const;

const KIND_LABELS: Record<RegistryEntry['kind'], MessageKey> = {
  tool: 'extensions.kind.tool',
  command: 'extensions.kind.command',
  panel: 'extensions.kind.panel',
  card: 'extensions.kind.card',
  form: 'extensions.kind.form',
  workflow: 'extensions.kind.workflow',
  intent: 'extensions.kind.intent',
  knowledge: 'extensions.kind.knowledge',
  prompt: 'extensions.kind.prompt',
  profile_template: 'extensions.kind.profile_template',
  document_template: 'extensions.kind.document_template',
  macro: 'extensions.kind.macro',
  parser: 'extensions.kind.parser',
  setting: 'extensions.kind.setting',
  agent_component: 'extensions.kind.agent_component',
};

function Problems({ problems }: { problems: readonly ExtensionProblem[] }): ReactElement | null {
  const t = useTranslation();
  if (problems.length === 0) return null;
  return (
    <div className="field-error" role="alert">
      <p>{t('extensions.problems', { count: problems.length })}</p>
      <ul className="extension-problems">
        {problems.map((problem, index) => (
          <li key={index}>
            <code>
              {problem.path}
              {problem.pointer === undefined ? '' : ` → ${problem.pointer}`}
            </code>{' '}
            {problem.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** What an extension may do, as the user accepts it (spec §4.6: shown before install, recorded). */
function Permissions({ permissions }: { permissions: ExtensionPermissions }): ReactElement {
  const t = useTranslation();
  const none = t('extensions.permissions.none');
  return (
    <dl className="extension-permissions">
      <dt>{t('extensions.permissions.network')}</dt>
      <dd>{permissions.network.domains.length === 0 ? none : permissions.network.domains.join(', ')}</dd>
      <dt>{t('extensions.permissions.tools')}</dt>
      <dd>{permissions.tools.execute.length === 0 ? none : permissions.tools.execute.join(', ')}</dd>
      <dt>{t('extensions.permissions.data')}</dt>
      <dd>{permissions.data.scopes.length === 0 ? none : permissions.data.scopes.join(', ')}</dd>
    </dl>
  );
}

function Counts({ counts }: { counts: Readonly<Record<string, number>> }): ReactElement {
  const t = useTranslation();
  const shown = Object.entries(counts).filter(([, count]) => count > 0);
  return (
    <p className="field-hint">
      {shown.length === 0
        ? t('extensions.providesNothing')
        : t('extensions.provides', { list: shown.map(([kind, count]) => `${kind} ${count}`).join(' · ') })}
    </p>
  );
}

function PreviewCard({ preview, onDone }: { preview: ExtensionPreview; onDone: () => void }): ReactElement {
  const t = useTranslation();
  const language = useResolvedLanguage();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const install = useMutation({
    mutationFn: (permissions: ExtensionPermissions) =>
      api.installExtension({ staging_id: preview.staging_id, accepted_permissions: permissions }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: EXTENSIONS_KEY });
      void queryClient.invalidateQueries({ queryKey: REGISTRY_KEY });
    },
    onSuccess: onDone,
  });
  const { manifest, permissions } = preview;
  return (
    <div className="settings-card extension-preview" data-ok={preview.ok}>
      {manifest === null ? (
        <strong>{t('extensions.unreadable')}</strong>
      ) : (
        <>
          <div className="provider-line">
            <strong>{manifest.name[language]}</strong>
            <span className="badge">{manifest.id}</span>
            <span className="badge">{manifest.version}</span>
            {preview.replaces !== null && (
              <span className="badge muted">{t('extensions.replaces', { version: preview.replaces })}</span>
            )}
          </div>
          <p>{manifest.description[language]}</p>
        </>
      )}
      {permissions !== null && (
        <>
          <h3>{t('extensions.permissions.heading')}</h3>
          <Permissions permissions={permissions} />
        </>
      )}
      {preview.ok && <Counts counts={preview.counts} />}
      <Problems problems={preview.problems} />
      {install.isError && (
        <p className="field-error" role="alert">
          {errorMessage(install.error)}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onDone}>
          {t('nav.cancel')}
        </button>
        <button
          type="button"
          className="button primary"
          disabled={!preview.ok || permissions === null || install.isPending}
          onClick={() => {
            if (permissions !== null) install.mutate(permissions);
          }}
        >
          {t('extensions.acceptAndInstall')}
        </button>
      </div>
    </div>
  );
}

function InstallForm(): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const [path, setPath] = useState('');
  const [preview, setPreview] = useState<ExtensionPreview>();
  const stage = useMutation({
    mutationFn: (source: { path: string } | { file: File }) =>
      'path' in source ? api.previewExtension(source.path) : api.uploadExtension(source.file),
    onSuccess: setPreview,
  });
  if (preview !== undefined)
    return (
      <PreviewCard
        preview={preview}
        onDone={() => {
          setPreview(undefined);
          setPath('');
        }}
      />
    );
  return (
    <form
      className="settings-card extension-install"
      onSubmit={(event) => {
        event.preventDefault();
        if (path.trim() !== '') stage.mutate({ path: path.trim() });
      }}
    >
      <label className="field">
        <span>{t('extensions.path')}</span>
        <input
          value={path}
          onChange={(event) => setPath(event.target.value)}
          placeholder="/home/me/extensions/example"
          aria-describedby="extension-path-hint"
        />
        <span id="extension-path-hint" className="field-hint">
          {t('extensions.pathHint')}
        </span>
      </label>
      <label className="field">
        <span>{t('extensions.upload')}</span>
        <input
          type="file"
          accept=".zip,.tgz,.tar.gz,application/zip,application/gzip"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file !== undefined) stage.mutate({ file });
          }}
        />
      </label>
      {stage.isError && (
        <p className="field-error" role="alert">
          {errorMessage(stage.error)}
        </p>
      )}
      <div className="dialog-actions">
        <button type="submit" className="button primary" disabled={path.trim() === '' || stage.isPending}>
          {t('extensions.preview')}
        </button>
      </div>
    </form>
  );
}

function ExtensionCard({
  extension,
  onRemove,
}: {
  extension: InstalledExtension;
  onRemove: () => void;
}): ReactElement {
  const t = useTranslation();
  const language = useResolvedLanguage();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: EXTENSIONS_KEY });
    void queryClient.invalidateQueries({ queryKey: REGISTRY_KEY });
  };
  const toggle = useMutation({
    mutationFn: () => api.setExtensionEnabled(extension.id, extension.state !== 'enabled'),
    onSettled: refresh,
  });
  const reload = useMutation({ mutationFn: () => api.reloadExtension(extension.id), onSettled: refresh });
  const enabled = extension.state === 'enabled';
  return (
    <li className="settings-card extension-card" data-state={extension.state}>
      <div className="provider-line">
        <strong>{extension.name[language]}</strong>
        <span className="badge">{extension.id}</span>
        <span className="badge">{extension.version}</span>
        <span className={`badge ${enabled ? '' : 'muted'}`}>
          {enabled ? t('extensions.enabled') : t('extensions.disabled')}
        </span>
      </div>
      <p>{extension.description[language]}</p>
      <details>
        <summary>{t('extensions.permissions.recorded')}</summary>
        <Permissions permissions={extension.permissions} />
      </details>
      <Counts counts={extension.counts} />
      {extension.problems.length > 0 && <p className="field-hint">{t('extensions.lastGoodKept')}</p>}
      <Problems problems={extension.problems} />
      {extension.pending_restart && <p className="field-hint">{t('extensions.pendingRestart')}</p>}
      {(toggle.isError || reload.isError) && (
        <p className="field-error" role="alert">
          {errorMessage(toggle.error ?? reload.error)}
        </p>
      )}
      <CardActions
        actions={[
          {
            label: enabled ? t('extensions.disable') : t('extensions.enable'),
            onClick: () => toggle.mutate(),
            disabled: toggle.isPending,
          },
          { label: t('extensions.reload'), onClick: () => reload.mutate(), disabled: reload.isPending },
        ]}
        removeLabel={t('extensions.uninstall')}
        onRemove={onRemove}
      />
    </li>
  );
}

function sourceLabel(source: string, t: ReturnType<typeof useTranslation>): string {
  if (source === 'builtin') return t('extensions.source.builtin');
  if (source === 'user') return t('extensions.source.user');
  if (source === 'profile') return t('extensions.source.profile');
  return t('extensions.source.extension', { id: source.slice('extension:'.length) });
}

/** "What is active and who provides it", and one switch per source (spec §4.1 rule 4). */
function RegistryView(): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const registry = useQuery({ queryKey: REGISTRY_KEY, queryFn: () => api.registry() });
  const toggle = useMutation({
    mutationFn: ({ source, enabled }: { source: string; enabled: boolean }) =>
      api.setRegistrySource(source, enabled),
    onSuccess: (list) => queryClient.setQueryData(REGISTRY_KEY, list),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: EXTENSIONS_KEY }),
  });
  if (registry.isError)
    return (
      <p className="field-error" role="alert">
        {errorMessage(registry.error)}
      </p>
    );
  const list = registry.data;
  if (list === undefined) return <p className="field-hint">{t('extensions.loading')}</p>;
  return (
    <div className="extension-registry">
      {toggle.isError && (
        <p className="field-error" role="alert">
          {errorMessage(toggle.error)}
        </p>
      )}
      {list.sources.map((source) => {
        const entries = list.entries.filter((entry) => entry.source === source.source);
        return (
          <details key={source.source} className="settings-card">
            <summary>
              <span className="extension-source-name">{sourceLabel(source.source, t)}</span>{' '}
              <span className="badge">{t('extensions.entryCount', { count: entries.length })}</span>{' '}
              <label className="switch" onClick={(event) => event.stopPropagation()}>
                <input
                  type="checkbox"
                  checked={source.enabled}
                  disabled={toggle.isPending}
                  aria-label={t('extensions.sourceSwitch', { source: sourceLabel(source.source, t) })}
                  onChange={(event) =>
                    toggle.mutate({ source: source.source, enabled: event.target.checked })
                  }
                />
                <span>{source.enabled ? t('extensions.on') : t('extensions.off')}</span>
              </label>
            </summary>
            <table className="extension-entries">
              <thead>
                <tr>
                  <th>{t('extensions.column.kind')}</th>
                  <th>{t('extensions.column.name')}</th>
                  <th>{t('extensions.column.active')}</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((entry) => (
                  <tr key={`${entry.kind}:${entry.name}`} data-active={entry.active}>
                    <td>{t(KIND_LABELS[entry.kind])}</td>
                    <td>
                      <code>{entry.name}</code>
                      {entry.title === undefined ? null : <span className="field-hint"> {entry.title}</span>}
                    </td>
                    <td>{entry.active ? t('extensions.on') : t('extensions.off')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        );
      })}
    </div>
  );
}

/**
 * Settings → Extensions (spec §4.6): install from a folder or archive after reading its
 * permissions, enable, disable, reload, uninstall, every problem listed; and the unified registry.
 */
export function ExtensionsSection(): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const extensions = useQuery({
    queryKey: EXTENSIONS_KEY,
    queryFn: () => api.listExtensions(),
    refetchInterval: 5000,
  });
  const [removing, setRemoving] = useState<InstalledExtension>();
  const remove = useMutation({
    mutationFn: (id: string) => api.uninstallExtension(id),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: EXTENSIONS_KEY });
      void queryClient.invalidateQueries({ queryKey: REGISTRY_KEY });
    },
  });
  return (
    <div className="settings-widget" data-widget="extensions">
      <p className="settings-intro">{t('extensions.intro')}</p>
      {extensions.isError && (
        <p className="field-error" role="alert">
          {errorMessage(extensions.error)}
        </p>
      )}
      {remove.isError && (
        <p className="field-error" role="alert">
          {errorMessage(remove.error)}
        </p>
      )}
      <ul className="settings-list">
        {extensions.data?.length === 0 && <li className="empty-state">{t('extensions.none')}</li>}
        {extensions.data?.map((extension) => (
          <ExtensionCard key={extension.id} extension={extension} onRemove={() => setRemoving(extension)} />
        ))}
      </ul>
      <h3>{t('extensions.install')}</h3>
      <InstallForm />
      <h3>{t('extensions.registry')}</h3>
      <p className="settings-intro">{t('extensions.registryIntro')}</p>
      <RegistryView />
      <ConfirmRemove
        item={removing}
        label={t('extensions.uninstall')}
        message={t('extensions.confirmUninstall', { name: removing?.id ?? '' })}
        onRemove={(extension) => remove.mutate(extension.id)}
        onClose={() => setRemoving(undefined)}
      />
    </div>
  );
}
