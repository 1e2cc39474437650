import { useQueryClient } from '@tanstack/react-query';
import type { AgentProfile, ProfileInput } from '@youyou/contracts';
import { useState, type ReactElement } from 'react';
import { errorMessage, isApiError } from '../api/index.ts';
import { useTranslation } from '../i18n/index.ts';
import { useModels } from '../queries/index.ts';
import { ContextSlotsEditor } from './context-slots-editor.tsx';
import { useServices } from '../services/index.ts';
import { PROFILES_KEY, useProfiles } from './customise-queries.ts';
import { ProfileTemplatePicker } from './profile-template-picker.tsx';

const EFFORTS = ['minimal', 'low', 'medium', 'high'] as const;

function inputOf(profile: AgentProfile): ProfileInput {
  const { id: _id, builtin: _builtin, created_at: _created, updated_at: _updated, ...input } = profile;
  return input;
}

const listText = (patterns: readonly string[]): string => patterns.join(', ');
const listOf = (text: string): string[] =>
  text
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
const numberOrNull = (text: string): number | null => (text.trim() === '' ? null : Number(text));

/** The problems of a structured error, one per line (`/parameters/temperature: too big`). */
function problemsOf(error: unknown): string {
  if (!isApiError(error)) return errorMessage(error);
  const problems = error.details['problems'];
  if (!Array.isArray(problems) || problems.length === 0) return error.message;
  return [
    error.message,
    ...problems.map(
      (problem: { path?: string; message?: string }) => `${problem.path ?? ''}: ${problem.message ?? ''}`,
    ),
  ].join('\n');
}

function ProfileEditor({
  profile,
  onDone,
}: {
  profile: AgentProfile;
  onDone: (saved?: AgentProfile) => void;
}): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const models = useModels();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<ProfileInput>(inputOf(profile));
  // A save's error is about the draft that was saved; once the draft is edited it no longer applies.
  const [failure, setFailure] = useState<{ message: string; draft: ProfileInput } | undefined>(undefined);
  const error = failure?.draft === draft ? failure.message : undefined;
  const readOnly = profile.builtin;
  const set = (changes: Partial<ProfileInput>): void => setDraft((current) => ({ ...current, ...changes }));
  const modelValue = 'router' in draft.model ? `router:${draft.model.router}` : `id:${draft.model.id}`;
  const save = async (): Promise<void> => {
    setFailure(undefined);
    try {
      const saved =
        profile.id === '' ? await api.createProfile(draft) : await api.updateProfile(profile.id, draft);
      await queryClient.invalidateQueries({ queryKey: PROFILES_KEY });
      onDone(saved);
    } catch (caught) {
      setFailure({ message: problemsOf(caught), draft });
    }
  };
  const number = (
    label: string,
    value: number | null | undefined,
    change: (next: number | null) => void,
    attributes: { min?: number; max?: number; step?: number | 'any' } = {},
  ): ReactElement => (
    <label className="field">
      <span>{label}</span>
      <input
        type="number"
        aria-label={label}
        disabled={readOnly}
        placeholder={t('schema.notSet')}
        value={value ?? ''}
        {...attributes}
        onChange={(event) => change(numberOrNull(event.target.value))}
      />
    </label>
  );
  return (
    <form
      className="settings-card profile-editor"
      aria-label={t('profiles.editor')}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      {readOnly && <p className="settings-intro">{t('profiles.builtinReadOnly')}</p>}
      <div className="field-row">
        <label className="field">
          <span>{t('profiles.name')}</span>
          <input
            aria-label={t('profiles.name')}
            disabled={readOnly}
            value={draft.name}
            onChange={(event) => set({ name: event.target.value })}
          />
        </label>
        <label className="field">
          <span>{t('profiles.model')}</span>
          <select
            aria-label={t('profiles.model')}
            disabled={readOnly}
            value={modelValue}
            onChange={(event) => {
              const [kind, rest] = [
                event.target.value.slice(0, event.target.value.indexOf(':')),
                event.target.value.slice(event.target.value.indexOf(':') + 1),
              ];
              set({ model: kind === 'router' ? { router: rest as 'chat' | 'lightweight' } : { id: rest } });
            }}
          >
            <option value="router:chat">{t('profiles.model.chat')}</option>
            <option value="router:lightweight">{t('profiles.model.lightweight')}</option>
            {(models.data?.models ?? []).map((model) => (
              <option key={model.id} value={`id:${model.id}`}>
                {model.id}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label className="field">
        <span>{t('profiles.systemPrompt')}</span>
        <textarea
          aria-label={t('profiles.systemPrompt')}
          disabled={readOnly}
          rows={5}
          placeholder={t('profiles.systemPromptHint')}
          value={draft.systemPrompt}
          onChange={(event) => set({ systemPrompt: event.target.value })}
        />
      </label>
      <fieldset className="profile-group">
        <legend>{t('profiles.parameters')}</legend>
        <div className="field-row">
          {number(
            t('profiles.temperature'),
            draft.parameters.temperature,
            (temperature) => set({ parameters: { ...draft.parameters, temperature } }),
            { min: 0, max: 2, step: 'any' },
          )}
          {number(
            t('profiles.maxTokens'),
            draft.parameters.max_tokens,
            (max_tokens) => set({ parameters: { ...draft.parameters, max_tokens } }),
            { min: 1, step: 1 },
          )}
          <label className="field">
            <span>{t('profiles.reasoningEffort')}</span>
            <select
              aria-label={t('profiles.reasoningEffort')}
              disabled={readOnly}
              value={draft.parameters.reasoning_effort ?? ''}
              onChange={(event) =>
                set({
                  parameters: {
                    ...draft.parameters,
                    reasoning_effort:
                      event.target.value === '' ? null : (event.target.value as (typeof EFFORTS)[number]),
                  },
                })
              }
            >
              <option value="">{t('schema.notSet')}</option>
              {EFFORTS.map((effort) => (
                <option key={effort} value={effort}>
                  {effort}
                </option>
              ))}
            </select>
          </label>
        </div>
        <div className="field-row">
          {number(
            t('profiles.timeout'),
            draft.parameters.timeout_ms,
            (timeout_ms) => set({ parameters: { ...draft.parameters, timeout_ms } }),
            { min: 1000, step: 1 },
          )}
          {number(
            t('profiles.retryBudget'),
            draft.parameters.retry_budget,
            (retry_budget) => set({ parameters: { ...draft.parameters, retry_budget } }),
            { min: 0, max: 10, step: 1 },
          )}
        </div>
      </fieldset>
      <fieldset className="profile-group">
        <legend>{t('profiles.tools')}</legend>
        {(['allow', 'deny', 'confirm'] as const).map((list) => (
          <label key={list} className="field">
            <span>{t(`profiles.tools.${list}`)}</span>
            <input
              aria-label={t(`profiles.tools.${list}`)}
              disabled={readOnly}
              placeholder="read_*, http.*"
              defaultValue={listText(draft.tools[list])}
              onChange={(event) => set({ tools: { ...draft.tools, [list]: listOf(event.target.value) } })}
            />
          </label>
        ))}
      </fieldset>
      <fieldset className="profile-group">
        <legend>{t('profiles.budget')}</legend>
        <div className="field-row">
          {number(
            t('profiles.budget.tokens'),
            draft.budget.max_tokens,
            (max_tokens) => set({ budget: { ...draft.budget, max_tokens } }),
            { min: 1, step: 1 },
          )}
          {number(
            t('profiles.budget.time'),
            draft.budget.max_duration_ms,
            (max_duration_ms) => set({ budget: { ...draft.budget, max_duration_ms } }),
            { min: 1000, step: 1 },
          )}
          {number(
            t('profiles.budget.toolCalls'),
            draft.budget.max_tool_calls,
            (max_tool_calls) => set({ budget: { ...draft.budget, max_tool_calls } }),
            { min: 0, step: 1 },
          )}
        </div>
      </fieldset>
      <div className="field-row">
        <label className="field">
          <span>{t('profiles.context')}</span>
          <select
            aria-label={t('profiles.context')}
            disabled={readOnly}
            value={draft.context.policy}
            onChange={(event) =>
              set({
                context: {
                  ...draft.context,
                  policy: event.target.value as ProfileInput['context']['policy'],
                },
              })
            }
          >
            <option value="default">{t('profiles.context.default')}</option>
            <option value="compact-early">{t('profiles.context.early')}</option>
            <option value="no-compaction">{t('profiles.context.none')}</option>
          </select>
        </label>
        <label className="field checkbox-field">
          <input
            type="checkbox"
            disabled={readOnly}
            checked={draft.hitl.askOnAmbiguity}
            onChange={(event) => set({ hitl: { ...draft.hitl, askOnAmbiguity: event.target.checked } })}
          />
          <span>{t('profiles.askOnAmbiguity')}</span>
        </label>
        {number(
          t('profiles.hitlTimeout'),
          draft.hitl.timeoutSec,
          (timeoutSec) => set({ hitl: { ...draft.hitl, timeoutSec } }),
          { min: 1, step: 1 },
        )}
      </div>
      <ContextSlotsEditor
        value={draft.context.assembly}
        readOnly={readOnly}
        onChange={(assembly) => {
          const { assembly: _previous, ...rest } = draft.context;
          set({ context: assembly === undefined ? rest : { ...rest, assembly } });
        }}
      />
      {error !== undefined && (
        <p className="field-error profile-error" role="alert">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={() => onDone()}>
          {t('nav.cancel')}
        </button>
        {!readOnly && (
          <button type="submit" className="button primary">
            {t('profiles.save')}
          </button>
        )}
      </div>
    </form>
  );
}

const BLANK: AgentProfile = {
  id: '',
  name: '',
  builtin: false,
  systemPrompt: '',
  model: { router: 'chat' },
  parameters: {},
  tools: { allow: ['*'], deny: [], confirm: [] },
  context: { policy: 'default' },
  hitl: { askOnAmbiguity: true, timeoutSec: null },
  budget: {},
  created_at: '',
  updated_at: '',
};

/**
 * Settings → Profiles (spec §4.7): the built-in baseline and your own profiles — system prompt,
 * model, parameters, tool lists, context and HITL policy, budget — created, edited, duplicated,
 * deleted, imported and exported as JSON files, or made from an installed extension's template.
 */
export function ProfilesSection(): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const profiles = useProfiles();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<AgentProfile | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const refresh = () => queryClient.invalidateQueries({ queryKey: PROFILES_KEY });
  const act = async (action: () => Promise<unknown>): Promise<void> => {
    setError(undefined);
    setNotice(undefined);
    try {
      await action();
      await refresh();
    } catch (failure) {
      setError(problemsOf(failure));
    }
  };
  return (
    <div className="settings-widget" data-widget="profiles">
      <p className="settings-intro">{t('profiles.intro')}</p>
      {editing !== undefined ? (
        <ProfileEditor key={editing.id} profile={editing} onDone={() => setEditing(undefined)} />
      ) : (
        <>
          <ul className="settings-list">
            {(profiles.data ?? []).map((profile) => (
              <li key={profile.id} className="settings-card profile-card" data-profile={profile.name}>
                <div className="provider-line">
                  <strong>{profile.name}</strong>
                  {profile.builtin && <span className="badge">{t('profiles.builtin')}</span>}
                  {profile.parameters.temperature !== null &&
                    profile.parameters.temperature !== undefined && (
                      <span className="badge">{`T ${profile.parameters.temperature}`}</span>
                    )}
                  {profile.tools.deny.length > 0 && (
                    <span className="badge muted">
                      {t('profiles.denies', { tools: profile.tools.deny.join(', ') })}
                    </span>
                  )}
                </div>
                {profile.systemPrompt !== '' && <p className="profile-prompt">{profile.systemPrompt}</p>}
                <div className="dialog-actions">
                  <button type="button" className="button" onClick={() => setEditing(profile)}>
                    {profile.builtin ? t('profiles.view') : t('profiles.edit')}
                  </button>
                  <button
                    type="button"
                    className="button"
                    onClick={() => void act(() => api.duplicateProfile(profile.id))}
                  >
                    {t('profiles.duplicate')}
                  </button>
                  {!profile.builtin && (
                    <>
                      <a className="button" href={api.profilesExportUrl(profile.id)} download>
                        {t('profiles.export')}
                      </a>
                      <button
                        type="button"
                        className="button danger"
                        onClick={() => void act(() => api.deleteProfile(profile.id))}
                      >
                        {t('nav.delete')}
                      </button>
                    </>
                  )}
                </div>
              </li>
            ))}
          </ul>
          <div className="dialog-actions">
            <label className="button">
              {t('profiles.import')}
              <input
                type="file"
                accept="application/json,.json"
                className="visually-hidden"
                aria-label={t('profiles.import')}
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  event.target.value = '';
                  if (file === undefined) return;
                  void act(async () => {
                    const imported = await api.importProfiles(await file.text());
                    setNotice(t('profiles.imported', { count: imported.length }));
                  });
                }}
              />
            </label>
            <ProfileTemplatePicker
              onCreate={(create) =>
                void act(async () => {
                  // A template is a starting point: the new profile opens for fine-tuning.
                  setEditing(await create());
                })
              }
            />
            <button type="button" className="button primary" onClick={() => setEditing({ ...BLANK })}>
              {t('profiles.new')}
            </button>
          </div>
        </>
      )}
      {notice !== undefined && (
        <p className="test-ok" role="status">
          {notice}
        </p>
      )}
      {error !== undefined && (
        <p className="field-error profile-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
