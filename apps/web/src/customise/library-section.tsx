import { useQueryClient } from '@tanstack/react-query';
import { templateVariables, type Macro, type Snippet } from '@youyou/contracts';
import { useState, type ReactElement } from 'react';
import { errorMessage, isApiError } from '../api/index.ts';
import { useTranslation } from '../i18n/index.ts';
import { useServices } from '../services/index.ts';
import { COMMANDS_KEY, MACROS_KEY, SNIPPETS_KEY, useMacros, useSnippets } from './customise-queries.ts';

function messageOf(error: unknown): string {
  if (!isApiError(error)) return errorMessage(error);
  const problems = error.details['problems'];
  return Array.isArray(problems) && problems.length > 0
    ? `${error.message} ${problems.map((problem: { path?: string; message?: string }) => `${problem.path ?? ''}: ${problem.message ?? ''}`).join('; ')}`
    : error.message;
}

function MacroForm({ macro, onDone }: { macro: Macro | undefined; onDone: () => void }): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const [name, setName] = useState(macro?.name ?? '');
  const [description, setDescription] = useState(macro?.description ?? '');
  const [template, setTemplate] = useState(macro?.template ?? '');
  const [error, setError] = useState<string | undefined>(undefined);
  const variables = templateVariables(template);
  return (
    <form
      className="settings-card"
      aria-label={t('library.macroForm')}
      onSubmit={(event) => {
        event.preventDefault();
        setError(undefined);
        const input = { name, description, template };
        void (macro === undefined ? api.createMacro(input) : api.updateMacro(macro.id, input))
          .then(async () => {
            await queryClient.invalidateQueries({ queryKey: MACROS_KEY });
            await queryClient.invalidateQueries({ queryKey: COMMANDS_KEY });
            onDone();
          })
          .catch((failure: unknown) => setError(messageOf(failure)));
      }}
    >
      <div className="field-row">
        <label className="field">
          <span>{t('library.macroName')}</span>
          <input
            aria-label={t('library.macroName')}
            value={name}
            placeholder="translate"
            onChange={(event) => setName(event.target.value)}
          />
        </label>
        <label className="field">
          <span>{t('library.description')}</span>
          <input
            aria-label={t('library.description')}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
          />
        </label>
      </div>
      <label className="field">
        <span>{t('library.template')}</span>
        <textarea
          aria-label={t('library.template')}
          rows={4}
          value={template}
          placeholder="Translate {{text}} into {{language}}."
          onChange={(event) => setTemplate(event.target.value)}
        />
      </label>
      <p className="settings-intro">
        {variables.length === 0
          ? t('library.noVariables')
          : t('library.variables', { names: variables.join(', ') })}
      </p>
      {error !== undefined && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onDone}>
          {t('nav.cancel')}
        </button>
        <button type="submit" className="button primary">
          {t('profiles.save')}
        </button>
      </div>
    </form>
  );
}

function SnippetForm({
  snippet,
  onDone,
}: {
  snippet: Snippet | undefined;
  onDone: () => void;
}): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState(snippet?.title ?? '');
  const [body, setBody] = useState(snippet?.body ?? '');
  const [tags, setTags] = useState((snippet?.tags ?? []).join(', '));
  const [error, setError] = useState<string | undefined>(undefined);
  return (
    <form
      className="settings-card"
      aria-label={t('library.snippetForm')}
      onSubmit={(event) => {
        event.preventDefault();
        setError(undefined);
        const input = {
          title,
          body,
          tags: tags
            .split(',')
            .map((tag) => tag.trim())
            .filter((tag) => tag !== ''),
        };
        void (snippet === undefined ? api.createSnippet(input) : api.updateSnippet(snippet.id, input))
          .then(async () => {
            await queryClient.invalidateQueries({ queryKey: SNIPPETS_KEY });
            onDone();
          })
          .catch((failure: unknown) => setError(messageOf(failure)));
      }}
    >
      <div className="field-row">
        <label className="field">
          <span>{t('library.snippetTitle')}</span>
          <input
            aria-label={t('library.snippetTitle')}
            value={title}
            onChange={(event) => setTitle(event.target.value)}
          />
        </label>
        <label className="field">
          <span>{t('library.tags')}</span>
          <input
            aria-label={t('library.tags')}
            value={tags}
            onChange={(event) => setTags(event.target.value)}
          />
        </label>
      </div>
      <label className="field">
        <span>{t('library.snippetBody')}</span>
        <textarea
          aria-label={t('library.snippetBody')}
          rows={4}
          value={body}
          onChange={(event) => setBody(event.target.value)}
        />
      </label>
      {error !== undefined && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onDone}>
          {t('nav.cancel')}
        </button>
        <button type="submit" className="button primary">
          {t('profiles.save')}
        </button>
      </div>
    </form>
  );
}

/**
 * Settings → Commands & snippets (spec §4.14): macros (`/name` → a template whose `{{variables}}`
 * the composer asks for) and the snippet library, with import and export as one JSON file.
 */
export function LibrarySection(): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const macros = useMacros();
  const snippets = useSnippets();
  const [macro, setMacro] = useState<Macro | 'new' | undefined>(undefined);
  const [snippet, setSnippet] = useState<Snippet | 'new' | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const refresh = async (): Promise<void> => {
    await queryClient.invalidateQueries({ queryKey: MACROS_KEY });
    await queryClient.invalidateQueries({ queryKey: SNIPPETS_KEY });
    await queryClient.invalidateQueries({ queryKey: COMMANDS_KEY });
  };
  const act = (action: () => Promise<unknown>): void => {
    setError(undefined);
    setNotice(undefined);
    void action()
      .then(refresh)
      .catch((failure: unknown) => setError(messageOf(failure)));
  };
  return (
    <div className="settings-widget" data-widget="library">
      <p className="settings-intro">{t('library.intro')}</p>
      <h3>{t('library.macros')}</h3>
      {macro !== undefined ? (
        <MacroForm macro={macro === 'new' ? undefined : macro} onDone={() => setMacro(undefined)} />
      ) : (
        <>
          <ul className="settings-list">
            {macros.data?.length === 0 && <li className="empty-state">{t('library.noMacros')}</li>}
            {(macros.data ?? []).map((item) => (
              <li key={item.id} className="settings-card">
                <div className="provider-line">
                  <strong>/{item.name}</strong>
                  <span>{item.description}</span>
                  {item.variables.map((variable) => (
                    <span key={variable} className="badge">{`{{${variable}}}`}</span>
                  ))}
                </div>
                <div className="dialog-actions">
                  <button type="button" className="button" onClick={() => setMacro(item)}>
                    {t('profiles.edit')}
                  </button>
                  <button
                    type="button"
                    className="button danger"
                    onClick={() => act(() => api.deleteMacro(item.id))}
                  >
                    {t('nav.delete')}
                  </button>
                </div>
              </li>
            ))}
          </ul>
          <button type="button" className="button primary" onClick={() => setMacro('new')}>
            {t('library.newMacro')}
          </button>
        </>
      )}
      <h3>{t('library.snippets')}</h3>
      {snippet !== undefined ? (
        <SnippetForm snippet={snippet === 'new' ? undefined : snippet} onDone={() => setSnippet(undefined)} />
      ) : (
        <>
          <ul className="settings-list">
            {snippets.data?.length === 0 && <li className="empty-state">{t('library.noSnippets')}</li>}
            {(snippets.data ?? []).map((item) => (
              <li key={item.id} className="settings-card">
                <div className="provider-line">
                  <strong>{item.title}</strong>
                  {item.tags.map((tag) => (
                    <span key={tag} className="badge">
                      {tag}
                    </span>
                  ))}
                </div>
                <p className="profile-prompt">{item.body}</p>
                <div className="dialog-actions">
                  <button type="button" className="button" onClick={() => setSnippet(item)}>
                    {t('profiles.edit')}
                  </button>
                  <button
                    type="button"
                    className="button danger"
                    onClick={() => act(() => api.deleteSnippet(item.id))}
                  >
                    {t('nav.delete')}
                  </button>
                </div>
              </li>
            ))}
          </ul>
          <button type="button" className="button primary" onClick={() => setSnippet('new')}>
            {t('library.newSnippet')}
          </button>
        </>
      )}
      <div className="dialog-actions library-files">
        <a className="button" href={api.libraryExportUrl()} download>
          {t('library.export')}
        </a>
        <label className="button">
          {t('library.import')}
          <input
            type="file"
            accept="application/json,.json"
            className="visually-hidden"
            aria-label={t('library.import')}
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file === undefined) return;
              act(async () => {
                const result = await api.importLibrary(await file.text());
                setNotice(t('library.imported', { snippets: result.snippets, macros: result.macros }));
              });
            }}
          />
        </label>
      </div>
      {notice !== undefined && (
        <p className="test-ok" role="status">
          {notice}
        </p>
      )}
      {error !== undefined && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
