import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  MEMORY_CAPACITY_MAX,
  MEMORY_CONTENT_MAX,
  MEMORY_TYPES,
  type MemoryCreated,
  type MemoryItem,
  type MemoryScope,
  type MemorySettings,
  type MemoryType,
} from '@youyou/contracts';
import { useState, type ReactElement } from 'react';
import { errorMessage } from '../api/index.ts';
import { useTranslation, type Translate } from '../i18n/index.ts';
import { useProjects } from '../queries/index.ts';
import { useServices } from '../services/index.ts';
import { ConfirmDialog } from '../ui/index.ts';
import { MEMORY_KEY, MEMORY_SETTINGS_KEY, useMemories, useMemorySettings } from './memory-queries.ts';
import { memoryErrorText } from './message-memory-actions.tsx';
import './memory.css';

interface Draft {
  content: string;
  type: MemoryType;
  scope: MemoryScope;
  projectId: string;
  expires: string;
}

const EMPTY_DRAFT: Draft = { content: '', type: 'fact', scope: 'user', projectId: '', expires: '' };

const dateOf = (iso: string): string => new Date(iso).toLocaleDateString();

function MemoryForm({
  initial,
  editing,
  onDone,
}: {
  initial: Draft;
  editing?: MemoryItem;
  /** `evicted`: how many memories a new one pushed out (memory.capacity). */
  onDone: (evicted?: number) => void;
}): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const projects = useProjects();
  const [draft, setDraft] = useState<Draft>(initial);
  const set = <Key extends keyof Draft>(key: Key, value: Draft[Key]) =>
    setDraft((current) => ({ ...current, [key]: value }));
  const expiresAt = draft.expires === '' ? null : new Date(`${draft.expires}T23:59:59`).toISOString();
  const save = useMutation({
    mutationFn: () =>
      editing === undefined
        ? api.createMemory({
            scope: draft.scope,
            ...(draft.scope === 'project' ? { project_id: draft.projectId } : {}),
            type: draft.type,
            content: draft.content,
            expires_at: expiresAt,
          })
        : api.updateMemory(editing.id, { content: draft.content, type: draft.type, expires_at: expiresAt }),
    onSuccess: (saved: MemoryItem | MemoryCreated) => {
      void queryClient.invalidateQueries({ queryKey: MEMORY_KEY });
      onDone('evicted' in saved ? saved.evicted.length : undefined);
    },
  });
  const valid = draft.content.trim() !== '' && (draft.scope === 'user' || draft.projectId !== '');
  return (
    <form
      className="settings-card memory-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (valid) save.mutate();
      }}
    >
      <label className="field">
        <span>{t('memory.content')}</span>
        <textarea
          value={draft.content}
          maxLength={MEMORY_CONTENT_MAX}
          rows={3}
          onChange={(event) => set('content', event.target.value)}
          required
        />
      </label>
      <div className="field-row">
        <label className="field">
          <span>{t('memory.type')}</span>
          <select value={draft.type} onChange={(event) => set('type', event.target.value as MemoryType)}>
            {MEMORY_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`memory.type.${type}`)}
              </option>
            ))}
          </select>
        </label>
        {editing === undefined && (
          <label className="field">
            <span>{t('memory.scope')}</span>
            <select
              value={draft.scope === 'user' ? '' : draft.projectId}
              onChange={(event) =>
                setDraft((current) => ({
                  ...current,
                  scope: event.target.value === '' ? 'user' : 'project',
                  projectId: event.target.value,
                }))
              }
            >
              <option value="">{t('memory.scope.user')}</option>
              {projects.data?.map((project) => (
                <option key={project.id} value={project.id}>
                  {t('memory.scope.projectNamed', { name: project.name })}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className="field">
          <span>{t('memory.expires')}</span>
          <input type="date" value={draft.expires} onChange={(event) => set('expires', event.target.value)} />
        </label>
      </div>
      {save.error !== null && (
        <p className="field-error" role="alert">
          {memoryErrorText(t, save.error)}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={() => onDone()}>
          {t('memory.cancel')}
        </button>
        <button type="submit" className="button primary" disabled={!valid || save.isPending}>
          {t('memory.save')}
        </button>
      </div>
    </form>
  );
}

function scopeLabel(t: Translate, memory: MemoryItem, projectName: (id: string) => string): string {
  return memory.scope === 'user'
    ? t('memory.scope.user')
    : t('memory.scope.projectNamed', { name: projectName(memory.project_id ?? '') });
}

function MemoryRow({
  memory,
  projectName,
  onDelete,
}: {
  memory: MemoryItem;
  projectName: (id: string) => string;
  onDelete: () => void;
}): ReactElement {
  const t = useTranslation();
  const [editing, setEditing] = useState(false);
  const expired = memory.expires_at !== null && Date.parse(memory.expires_at) <= Date.now();
  if (editing) {
    return (
      <li>
        <MemoryForm
          editing={memory}
          initial={{
            content: memory.content,
            type: memory.type,
            scope: memory.scope,
            projectId: memory.project_id ?? '',
            expires: memory.expires_at === null ? '' : memory.expires_at.slice(0, 10),
          }}
          onDone={() => setEditing(false)}
        />
      </li>
    );
  }
  return (
    <li className="settings-card memory-card" data-testid="memory-item" data-memory-id={memory.id}>
      <p className="memory-content">{memory.content}</p>
      <div className="memory-meta">
        <span className="badge">{t(`memory.type.${memory.type}`)}</span>
        <span className="badge">{scopeLabel(t, memory, projectName)}</span>
        <span className="field-hint">{t(`memory.source.${memory.source}`)}</span>
        <span className="field-hint">
          {memory.last_accessed_at === null
            ? t('memory.neverUsed')
            : t('memory.lastUsed', { date: dateOf(memory.last_accessed_at) })}
        </span>
        {expired && <span className="badge muted">{t('memory.expired')}</span>}
        <span className="memory-actions">
          <button type="button" className="button" onClick={() => setEditing(true)}>
            {t('memory.edit')}
          </button>
          <button type="button" className="button danger" onClick={onDelete}>
            {t('memory.delete')}
          </button>
        </span>
      </div>
    </li>
  );
}

function MemorySwitches({ settings }: { settings: MemorySettings }): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const update = useMutation({
    mutationFn: (patch: Partial<MemorySettings>) => api.updateMemorySettings(patch),
    // The switch moves at once; the server's answer (or a refetch after a failure) settles it.
    onMutate: (patch) => queryClient.setQueryData(MEMORY_SETTINGS_KEY, { ...settings, ...patch }),
    onSuccess: (next) => queryClient.setQueryData(MEMORY_SETTINGS_KEY, next),
    onError: () => void queryClient.invalidateQueries({ queryKey: MEMORY_SETTINGS_KEY }),
  });
  return (
    <div className="settings-card memory-switches">
      <label className="switch">
        <input
          type="checkbox"
          checked={settings.enabled}
          data-testid="memory-enabled"
          onChange={(event) => update.mutate({ enabled: event.target.checked })}
        />
        <span>{t('memory.enabled')}</span>
      </label>
      <p className="field-hint">{t('memory.enabledHint')}</p>
      <label className="switch">
        <input
          type="checkbox"
          checked={settings.propose_candidates}
          disabled={!settings.enabled}
          onChange={(event) => update.mutate({ propose_candidates: event.target.checked })}
        />
        <span>{t('memory.propose')}</span>
      </label>
      <p className="field-hint">{t('memory.proposeHint')}</p>
      <label className="field memory-max">
        <span>{t('memory.maxItems')}</span>
        <input
          type="number"
          min={1}
          max={200}
          value={settings.max_items}
          disabled={!settings.enabled}
          onChange={(event) => {
            const value = Number(event.target.value);
            if (Number.isInteger(value) && value >= 1 && value <= 200) update.mutate({ max_items: value });
          }}
        />
      </label>
      <label className="field memory-max">
        <span>{t('memory.capacity')}</span>
        <input
          type="number"
          min={1}
          max={MEMORY_CAPACITY_MAX}
          value={settings.capacity}
          disabled={!settings.enabled}
          data-testid="memory-capacity"
          onChange={(event) => {
            const value = Number(event.target.value);
            if (Number.isInteger(value) && value >= 1 && value <= MEMORY_CAPACITY_MAX)
              update.mutate({ capacity: value });
          }}
        />
      </label>
      <p className="field-hint">{t('memory.capacityHint')}</p>
      {update.error !== null && (
        <p className="field-error" role="alert">
          {errorMessage(update.error)}
        </p>
      )}
    </div>
  );
}

/**
 * Settings → Memory (spec §4.13): the switch that turns memory off entirely (off by default), the
 * list of memories with search, edit and delete, adding one by hand, export and clear.
 */
export function MemorySection(): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const settings = useMemorySettings();
  const projects = useProjects();
  const [search, setSearch] = useState('');
  const memories = useMemories(search);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<MemoryItem>();
  const [clearing, setClearing] = useState(false);
  const [notice, setNotice] = useState<string>();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: MEMORY_KEY });
  const remove = useMutation({ mutationFn: (id: string) => api.deleteMemory(id), onSettled: refresh });
  const clear = useMutation({
    mutationFn: () => api.clearMemories(),
    onSuccess: (count) => setNotice(t('memory.cleared', { count })),
    onSettled: refresh,
  });
  const projectName = (id: string): string => projects.data?.find((project) => project.id === id)?.name ?? id;
  const list = memories.data?.memories ?? [];
  return (
    <div className="settings-widget memory-section" data-widget="memory">
      <p className="settings-intro">{t('memory.intro')}</p>
      {settings.data !== undefined && <MemorySwitches settings={settings.data} />}
      <div className="memory-toolbar">
        <input
          type="search"
          value={search}
          placeholder={t('memory.search')}
          aria-label={t('memory.search')}
          onChange={(event) => setSearch(event.target.value)}
        />
        <span className="field-hint">{t('memory.count', { count: memories.data?.total ?? 0 })}</span>
        <a className="button" href={api.memoryExportUrl()} download="youyou-memory.json">
          {t('memory.export')}
        </a>
        <button
          type="button"
          className="button danger"
          disabled={list.length === 0}
          onClick={() => setClearing(true)}
        >
          {t('memory.clear')}
        </button>
      </div>
      {notice !== undefined && (
        <p className="test-ok" role="status">
          {notice}
        </p>
      )}
      {memories.isError && (
        <p className="field-error" role="alert">
          {errorMessage(memories.error)}
        </p>
      )}
      <ul className="settings-list">
        {memories.isSuccess && list.length === 0 && (
          <li className="empty-state">{search.trim() === '' ? t('memory.none') : t('memory.noMatch')}</li>
        )}
        {list.map((memory) => (
          <MemoryRow
            key={memory.id}
            memory={memory}
            projectName={projectName}
            onDelete={() => setRemoving(memory)}
          />
        ))}
      </ul>
      {adding ? (
        <MemoryForm
          initial={EMPTY_DRAFT}
          onDone={(evicted) => {
            setAdding(false);
            if (evicted !== undefined && evicted > 0) setNotice(t('memory.evicted', { count: evicted }));
          }}
        />
      ) : (
        <button type="button" className="button primary" onClick={() => setAdding(true)}>
          {t('memory.add')}
        </button>
      )}
      <ConfirmDialog
        open={removing !== undefined}
        title={t('memory.delete')}
        message={t('memory.deleteConfirm')}
        confirmLabel={t('memory.delete')}
        cancelLabel={t('memory.cancel')}
        danger
        onCancel={() => setRemoving(undefined)}
        onConfirm={() => {
          if (removing !== undefined) remove.mutate(removing.id);
          setRemoving(undefined);
        }}
      />
      <ConfirmDialog
        open={clearing}
        title={t('memory.clear')}
        message={t('memory.clearConfirm')}
        confirmLabel={t('memory.clear')}
        cancelLabel={t('memory.cancel')}
        danger
        onCancel={() => setClearing(false)}
        onConfirm={() => {
          clear.mutate();
          setClearing(false);
        }}
      />
    </div>
  );
}
