import {
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type ClipboardEvent,
  type DragEvent,
  type KeyboardEvent,
  type ReactElement,
} from 'react';
import { errorMessage } from '../api/index.ts';
import { useServices } from '../services/index.ts';
import { MEMORY_KEY } from '../memory/memory-queries.ts';
import { memoryErrorText } from '../memory/message-memory-actions.tsx';
import { useResolvedLanguage, useTranslation } from '../i18n/index.ts';
import { PaperclipIcon, SendIcon, StopIcon } from '../icons/index.ts';
import { useNavigation } from '../navigation/index.ts';
import { usePreferences } from '../preferences/index.ts';
import { useConversationQuery } from '../queries/index.ts';
import {
  fillTemplate,
  type CommandDescriptor,
  type KnowledgeScope,
  type MessageReference,
  type ReferenceCandidate,
} from '@youyou/contracts';
import { mentionQuery, ReferencePicker, ReferenceTray, useReferenceCandidates } from '../knowledge/index.ts';
import { useCommands, useMacros, useProfiles, useSnippets } from '../customise/customise-queries.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CONVERSATIONS_KEY, conversationKey } from '../conversation-state/index.ts';
import { download } from '../archive/index.ts';
import { uploadDocumentKey } from '../documents/index.ts';
import { CommandForm, type ParameterChoices } from './command-form.tsx';
import { AttachmentTray } from './attachment-tray.tsx';
import { ACCEPT_ATTRIBUTE, checkAttachment } from './attachment-rules.ts';
import { useComposerStore, type PendingAttachment } from './composer-store.ts';
import { ModelPicker, useSelectedModel } from './model-picker.tsx';
import { paletteEntries, parseSkillMessage, slashQuery, type PaletteEntry } from './slash-commands.ts';
import { SlashPalette } from './slash-palette.tsx';
import './composer.css';

export interface ComposerSubmission {
  text: string;
  attachments: string[];
  skills: { name: string; arguments?: string }[];
  /** Objects attached with `@` (spec §4.14). */
  references?: MessageReference[];
}

export interface ComposerProps {
  /** The draft's key: the conversation id, or '' before one exists. */
  draftKey: string;
  running: boolean;
  disabled?: boolean;
  error?: string | undefined;
  /** Sends; a rejection puts the text and attachments back in the composer, so nothing is lost. */
  onSend: (submission: ComposerSubmission) => Promise<void>;
  /**
   * Set while a HITL card waits for free input: what is typed goes to the card (and the composer
   * says so), so sending works while the run is in flight.
   */
  answering?: boolean;
  onStop: () => void;
  onNewConversation: () => void;
}

let nextLocalId = 0;

/**
 * The message input: multi-line, Enter or Ctrl+Enter to send (a preference; never while an IME is
 * composing), stop while a run is in flight, files by picker, drag-and-drop and paste (previews,
 * size and type errors inline), a `/` palette of skills and commands, and the model picker.
 */
export function Composer(props: ComposerProps): ReactElement {
  const { draftKey, disabled = false, error, onSend, onStop, onNewConversation } = props;
  const answering = props.answering === true;
  // While a card waits, the run is in flight but the composer answers the card.
  const running = props.running && !answering;
  const t = useTranslation();
  const language = useResolvedLanguage();
  const { api } = useServices();
  const sendKey = usePreferences((state) => state.sendKey);
  const projectId = useNavigation((state) => state.projectId);
  const queryClient = useQueryClient();
  const text = useComposerStore((state) => state.drafts[draftKey] ?? '');
  const attachments = useComposerStore((state) => state.attachments[draftKey]) ?? [];
  const store = useComposerStore.getState;
  const commands = useCommands(projectId);
  // The server's upload limit (its setting), so the composer refuses exactly what it would.
  const health = useQuery({ queryKey: ['server-health'], queryFn: () => api.health(), staleTime: 60_000 });
  const macros = useMacros();
  const profiles = useProfiles();
  const snippets = useSnippets();
  const [form, setForm] = useState<CommandDescriptor | undefined>(undefined);
  const [help, setHelp] = useState(false);
  const [snippetsOpen, setSnippetsOpen] = useState(false);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [dragging, setDragging] = useState(false);
  const [paletteIndex, setPaletteIndex] = useState(0);
  const [references, setReferences] = useState<MessageReference[]>([]);
  const [caret, setCaret] = useState(0);
  const [mentionIndex, setMentionIndex] = useState(0);
  const [mentionDismissed, setMentionDismissed] = useState<number | undefined>(undefined);
  const conversationId = useNavigation((state) => state.conversationId);
  // A conversation opened by its link is in its project even when the left column selects none.
  const conversation = useConversationQuery(draftKey === '' ? undefined : draftKey);
  const uploadProject =
    draftKey === '' ? projectId : (conversation.data?.conversation.project_id ?? projectId);
  const inProject = uploadProject !== undefined && uploadProject !== null;
  const pickerId = useId();
  const [paletteDismissed, setPaletteDismissed] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const modelPicker = useRef<HTMLSelectElement>(null);
  const paletteId = useId();

  // Switching conversations puts the cursor in the composer (not while something else has focus,
  // and not on the first load, where Tab should start at the skip link).
  const firstDraftKey = useRef<string | undefined>(draftKey);
  useEffect(() => {
    if (firstDraftKey.current === draftKey) return;
    firstDraftKey.current = undefined;
    const active = document.activeElement;
    if (active === null || active === document.body || active.closest('.project-nav') !== null) {
      textarea.current?.focus();
    }
  }, [draftKey]);

  const query = slashQuery(text);
  const entries = useMemo(
    () => (query === undefined ? [] : paletteEntries(query, commands.data ?? [])),
    [query, commands.data],
  );
  const paletteOpen = query !== undefined && !paletteDismissed && form === undefined;
  const mention = paletteOpen ? undefined : mentionQuery(text, caret);
  const mentionOpen = mention !== undefined && mentionDismissed !== mention.start;
  const candidates = useReferenceCandidates({
    enabled: mentionOpen,
    // The conversation's project: `@` offers its knowledge also when the left column selects none.
    projectId: uploadProject ?? undefined,
    conversationId: conversationId ?? undefined,
    query: mention?.query ?? '',
  });
  const candidateList = mentionOpen ? (candidates.data ?? []) : [];
  const pickReference = (candidate: ReferenceCandidate): void => {
    if (mention === undefined) return;
    const reference: MessageReference = { kind: candidate.kind, id: candidate.id, label: candidate.label };
    setReferences((current) =>
      current.some((item) => item.kind === reference.kind && item.id === reference.id)
        ? current
        : [...current, reference],
    );
    const before = text.slice(0, mention.start);
    const after = text.slice(caret);
    setText(`${before}${after}`);
    setMentionIndex(0);
    requestAnimationFrame(() => {
      textarea.current?.focus();
      textarea.current?.setSelectionRange(before.length, before.length);
      setCaret(before.length);
    });
  };
  const skillNames = useMemo(
    () =>
      new Set((commands.data ?? []).filter((entry) => entry.source === 'skill').map((entry) => entry.name)),
    [commands.data],
  );
  const choices: ParameterChoices = useMemo(
    () => ({ profile: (profiles.data ?? []).map((profile) => ({ value: profile.id, label: profile.name })) }),
    [profiles.data],
  );
  const uploading = attachments.some((item) => item.status === 'uploading');
  const ready = attachments.filter((item) => item.status === 'ready');
  const model = useSelectedModel();
  // What the chosen model cannot take is said before sending instead of failing the turn.
  const unsupportedReason = (item: PendingAttachment): string | undefined =>
    model !== undefined && item.mediaType.startsWith('image/') && model.capabilities?.vision === false
      ? t('composer.noVision', { model: model.display_name })
      : undefined;
  const blocked = attachments.some((item) => unsupportedReason(item) !== undefined);
  const canSend =
    !running &&
    !disabled &&
    !uploading &&
    !blocked &&
    (text.trim() !== '' || ready.length > 0 || references.length > 0);

  const setText = (value: string): void => {
    store().setDraft(draftKey, value);
    setPaletteDismissed(false);
    setPaletteIndex(0);
  };

  const addFiles = (files: readonly File[]): void => {
    for (const file of files) {
      nextLocalId += 1;
      const localId = `local-${String(nextLocalId)}`;
      const problem = checkAttachment(file, health.data?.max_upload_bytes);
      const previewUrl =
        file.type.startsWith('image/') && problem === undefined ? URL.createObjectURL(file) : undefined;
      store().addAttachment(draftKey, {
        localId,
        name: file.name,
        size: file.size,
        mediaType: file.type,
        ...(previewUrl === undefined ? {} : { previewUrl }),
        status: problem === undefined ? 'uploading' : 'error',
        ...(problem === undefined
          ? {}
          : {
              error:
                problem.kind === 'too-large'
                  ? t('composer.tooLarge', { name: file.name, limit: problem.limit })
                  : t('composer.badType', { name: file.name }),
            }),
      });
      if (problem !== undefined) continue;
      api
        .upload(
          file,
          draftKey !== ''
            ? { conversationId: draftKey, knowledgeScope: 'project' }
            : projectId === undefined || projectId === null
              ? {}
              : { projectId, knowledgeScope: 'project' },
        )
        .then((upload) => {
          store().updateAttachment(draftKey, localId, { status: 'ready', upload });
          // Kept to the conversation while it was uploading: the document takes the choice now.
          const chosen = store().attachments[draftKey]?.find((item) => item.localId === localId);
          if (chosen?.knowledgeScope === 'conversation') applyScope(upload.id, 'conversation');
        })
        .catch((uploadError: unknown) =>
          store().updateAttachment(draftKey, localId, {
            status: 'error',
            error: t('composer.uploadFailed', { name: file.name, reason: errorMessage(uploadError) }),
          }),
        );
    }
  };

  /** Sets the knowledge scope of an upload's document (files no parser reads have none). */
  const applyScope = (uploadId: string, scope: KnowledgeScope): void => {
    api
      .getUploadDocument(uploadId)
      .then((document) => api.setDocumentKnowledgeScope(document.id, scope))
      .then((document) => queryClient.setQueryData(uploadDocumentKey(uploadId), document))
      .catch((failure: unknown) => setNotice(errorMessage(failure)));
  };
  const setScope = (localId: string, scope: KnowledgeScope): void => {
    store().updateAttachment(draftKey, localId, { knowledgeScope: scope });
    const upload = attachments.find((item) => item.localId === localId)?.upload;
    if (upload !== undefined) applyScope(upload.id, scope);
  };

  const submit = (): void => {
    if (!canSend) return;
    const parsed = parseSkillMessage(text, skillNames);
    const key = draftKey;
    const sent = { text, attachments, references };
    store().clear(key);
    setReferences([]);
    onSend({
      text: parsed.text,
      attachments: ready.flatMap((item) => (item.upload === undefined ? [] : [item.upload.id])),
      skills: parsed.skill === undefined ? [] : [parsed.skill],
      ...(sent.references.length === 0 ? {} : { references: sent.references }),
    }).then(
      () => {
        for (const item of sent.attachments)
          if (item.previewUrl !== undefined) URL.revokeObjectURL(item.previewUrl);
      },
      () => {
        store().restore(key, sent.text, sent.attachments);
        setReferences(sent.references);
      },
    );
  };

  const insertAtCursor = (insertion: string): void => {
    const element = textarea.current;
    const start = element?.selectionStart ?? text.length;
    const end = element?.selectionEnd ?? text.length;
    setText(`${text.slice(0, start)}${insertion}${text.slice(end)}`);
    requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(start + insertion.length, start + insertion.length);
    });
  };

  /** Runs a command once its form (if it has one) is filled. */
  const run = (command: CommandDescriptor, values: Readonly<Record<string, string>>): void => {
    setForm(undefined);
    setNotice(undefined);
    if (command.source === 'extension' && command.template !== undefined) {
      setText(fillTemplate(command.template, values));
      textarea.current?.focus();
      return;
    }
    if (command.source === 'macro') {
      const macro = macros.data?.find(
        (candidate) => candidate.id === command.source_id || candidate.name === command.name,
      );
      if (macro !== undefined) setText(fillTemplate(macro.template, values));
      textarea.current?.focus();
      return;
    }
    if (command.source === 'mcp') {
      // An MCP server's prompt, filled by the server with the form's values, into the composer.
      const [serverId = '', ...rest] = (command.source_id ?? '').split(':');
      api
        .getMcpPrompt(serverId, rest.join(':'), values)
        .then((result) => {
          setText(result.text);
          textarea.current?.focus();
        })
        .catch((failure: unknown) =>
          setNotice(t('composer.mcpPromptFailed', { message: errorMessage(failure) })),
        );
      return;
    }
    setText('');
    switch (command.name) {
      case 'new':
        onNewConversation();
        return;
      case 'model':
        modelPicker.current?.focus();
        return;
      case 'help':
        setHelp(true);
        return;
      case 'remember': {
        // `/remember text` (spec §4.13): stored at once, for the user or this project.
        const content = (values['text'] ?? '').trim();
        if (content === '') return;
        const scope = values['scope'] === 'project' && projectId !== undefined ? 'project' : 'user';
        api
          .createMemory({
            scope,
            ...(scope === 'project' ? { project_id: projectId } : {}),
            content,
            source: 'manual',
          })
          .then(async () => {
            setNotice(t('memory.remembered'));
            await queryClient.invalidateQueries({ queryKey: MEMORY_KEY });
          })
          .catch((failure: unknown) => setNotice(memoryErrorText(t, failure)));
        return;
      }
      case 'profile': {
        if (draftKey === '' || values['profile'] === undefined) return;
        const chosen = values['profile'];
        api
          .updateConversation(draftKey, { profile_id: chosen === 'default' ? null : chosen })
          .then(async () => {
            setNotice(
              t('composer.profileSet', {
                name: profiles.data?.find((profile) => profile.id === chosen)?.name ?? chosen,
              }),
            );
            await queryClient.invalidateQueries({ queryKey: conversationKey(draftKey) });
            await queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY });
          })
          .catch((failure: unknown) => setNotice(errorMessage(failure)));
        return;
      }
      case 'export': {
        if (draftKey === '') return;
        download(
          values['format'] === 'archive'
            ? api.archiveUrl({ conversationId: draftKey })
            : api.conversationExportUrl(draftKey, values['format'] === 'json' ? 'json' : 'markdown'),
        );
        return;
      }
      default:
        textarea.current?.focus();
    }
  };

  const pick = (entry: PaletteEntry): void => {
    setHelp(false);
    if (entry.source === 'skill') {
      setText(`/${entry.name} `);
      setPaletteDismissed(true);
      textarea.current?.focus();
      return;
    }
    const formless = entry.parameters.length === 0 || entry.name === 'model';
    if (formless) run(entry, {});
    else {
      setText('');
      setForm(entry);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.nativeEvent.isComposing || event.keyCode === 229) return;
    if (mentionOpen && mention !== undefined) {
      if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && candidateList.length > 0) {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setMentionIndex((index) => (index + step + candidateList.length) % candidateList.length);
        return;
      }
      if ((event.key === 'Enter' || event.key === 'Tab') && candidateList.length > 0) {
        event.preventDefault();
        const candidate = candidateList[Math.min(mentionIndex, candidateList.length - 1)];
        if (candidate !== undefined) pickReference(candidate);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        setMentionDismissed(mention.start);
        return;
      }
    }
    if (paletteOpen && entries.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setPaletteIndex((index) => (index + step + entries.length) % entries.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        const entry = entries[paletteIndex];
        if (entry !== undefined) pick(entry);
        return;
      }
    }
    if (paletteOpen && event.key === 'Escape') {
      event.preventDefault();
      setPaletteDismissed(true);
      return;
    }
    if (event.key === 'Escape' && props.running) {
      // Escape stops the answer in flight (as in terminal agents).
      event.preventDefault();
      onStop();
      return;
    }
    if (event.key !== 'Enter') return;
    const modifier = event.ctrlKey || event.metaKey;
    const sends = sendKey === 'enter' ? !event.shiftKey && !modifier : modifier;
    if (sends) {
      event.preventDefault();
      submit();
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>): void => {
    const files = [...event.clipboardData.files];
    if (files.length === 0) return;
    event.preventDefault();
    addFiles(files);
  };
  const onDrop = (event: DragEvent<HTMLDivElement>): void => {
    event.preventDefault();
    setDragging(false);
    addFiles([...event.dataTransfer.files]);
  };

  return (
    <div
      className={`composer${dragging ? ' dragging' : ''}`}
      onDragOver={(event) => {
        if (![...event.dataTransfer.types].includes('Files')) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={onDrop}
    >
      {mentionOpen && (
        <ReferencePicker
          id={pickerId}
          candidates={candidateList}
          activeIndex={Math.min(mentionIndex, Math.max(0, candidateList.length - 1))}
          loading={candidates.isFetching}
          t={t}
          onPick={pickReference}
        />
      )}
      {paletteOpen && (
        <SlashPalette id={paletteId} entries={entries} activeIndex={paletteIndex} t={t} onPick={pick} />
      )}
      {form !== undefined && (
        <CommandForm
          key={form.name}
          command={form}
          choices={choices}
          onRun={(values) => run(form, values)}
          onCancel={() => {
            setForm(undefined);
            textarea.current?.focus();
          }}
        />
      )}
      {help && (
        <div className="command-help" role="region" aria-label={t('composer.help')}>
          <div className="command-form-head">
            <strong>{t('composer.help')}</strong>
            <button type="button" className="button" onClick={() => setHelp(false)}>
              {t('settings.close')}
            </button>
          </div>
          <ul>
            {(commands.data ?? []).map((command) => (
              <li key={`${command.source}:${command.name}`}>
                <code>/{command.name}</code>{' '}
                <span className="badge">{t(`composer.source.${command.source}`)}</span>{' '}
                {command.description[language]}
              </li>
            ))}
          </ul>
        </div>
      )}
      {snippetsOpen && (
        <div className="snippet-menu" role="menu" aria-label={t('composer.snippets')}>
          {(snippets.data ?? []).length === 0 && (
            <div className="palette-empty">{t('library.noSnippets')}</div>
          )}
          {(snippets.data ?? []).map((snippet) => (
            <button
              key={snippet.id}
              type="button"
              role="menuitem"
              className="palette-entry"
              onClick={() => {
                setSnippetsOpen(false);
                insertAtCursor(snippet.body);
              }}
            >
              <span className="palette-name">{snippet.title}</span>
              <span className="palette-description">{snippet.body.slice(0, 80)}</span>
            </button>
          ))}
        </div>
      )}
      {notice !== undefined && (
        <p className="composer-notice" role="status">
          {notice}
        </p>
      )}
      {dragging && <div className="drop-hint">{t('composer.dropHere')}</div>}
      <AttachmentTray
        attachments={attachments}
        t={t}
        unsupportedReason={unsupportedReason}
        onRemove={(localId) => store().removeAttachment(draftKey, localId)}
        {...(inProject ? { onScope: setScope } : {})}
      />
      <ReferenceTray
        references={references}
        t={t}
        onRemove={(reference) =>
          setReferences((current) =>
            current.filter((item) => !(item.kind === reference.kind && item.id === reference.id)),
          )
        }
      />
      {answering && (
        <p className="composer-routed" role="status" data-testid="composer-routed">
          {t('hitl.composerRouted')}
        </p>
      )}
      {error !== undefined && (
        <p className="field-error composer-error" role="alert">
          {error}
        </p>
      )}
      <textarea
        ref={textarea}
        id="composer-input"
        className="composer-input"
        aria-label={t('composer.label')}
        placeholder={answering ? t('hitl.composerPlaceholder') : t('composer.placeholder')}
        value={text}
        rows={1}
        onChange={(event) => {
          setText(event.target.value);
          setCaret(event.target.selectionStart);
          setMentionIndex(0);
        }}
        onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        disabled={disabled}
        role={paletteOpen || mentionOpen ? 'combobox' : undefined}
        aria-expanded={paletteOpen || mentionOpen ? true : undefined}
        aria-controls={paletteOpen ? paletteId : mentionOpen ? pickerId : undefined}
        aria-autocomplete={paletteOpen || mentionOpen ? 'list' : undefined}
        aria-activedescendant={
          paletteOpen && entries.length > 0
            ? `${paletteId}-${String(paletteIndex)}`
            : mentionOpen && candidateList.length > 0
              ? `${pickerId}-${String(Math.min(mentionIndex, candidateList.length - 1))}`
              : undefined
        }
        data-testid="composer-input"
      />
      <div className="composer-toolbar">
        <input
          ref={fileInput}
          type="file"
          multiple
          accept={ACCEPT_ATTRIBUTE}
          className="visually-hidden"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(event) => {
            addFiles([...(event.target.files ?? [])]);
            event.target.value = '';
          }}
          data-testid="file-input"
        />
        <button
          type="button"
          className="icon-button"
          aria-label={t('composer.attach')}
          onClick={() => fileInput.current?.click()}
          disabled={disabled}
        >
          <PaperclipIcon />
        </button>
        <button
          type="button"
          className="icon-button snippet-button"
          aria-label={t('composer.snippets')}
          aria-expanded={snippetsOpen}
          onClick={() => setSnippetsOpen((open) => !open)}
          disabled={disabled}
        >
          ❝
        </button>
        <ModelPicker ref={modelPicker} />
        <span className="composer-hint">
          {sendKey === 'enter' ? t('composer.hintEnter') : t('composer.hintCtrlEnter')}
        </span>
        {running ? (
          <button
            type="button"
            className="send-button stop"
            aria-label={t('composer.stop')}
            onClick={onStop}
            data-testid="stop-button"
          >
            <StopIcon size={16} />
          </button>
        ) : (
          <button
            type="button"
            className="send-button"
            aria-label={t('composer.send')}
            onClick={submit}
            disabled={!canSend}
            data-testid="send-button"
          >
            <SendIcon size={16} />
          </button>
        )}
      </div>
    </div>
  );
}
