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
import { useTranslation } from '../i18n/index.ts';
import { PaperclipIcon, SendIcon, StopIcon } from '../icons/index.ts';
import { useNavigation } from '../navigation/index.ts';
import { usePreferences } from '../preferences/index.ts';
import { useComponents } from '../queries/index.ts';
import { AttachmentTray } from './attachment-tray.tsx';
import { ACCEPT_ATTRIBUTE, checkAttachment } from './attachment-rules.ts';
import { useComposerStore } from './composer-store.ts';
import { ModelPicker } from './model-picker.tsx';
import { paletteEntries, parseSkillMessage, slashQuery, type PaletteEntry } from './slash-commands.ts';
import { SlashPalette } from './slash-palette.tsx';
import './composer.css';

export interface ComposerSubmission {
  text: string;
  attachments: string[];
  skills: { name: string; arguments?: string }[];
}

export interface ComposerProps {
  /** The draft's key: the conversation id, or '' before one exists. */
  draftKey: string;
  running: boolean;
  disabled?: boolean;
  error?: string | undefined;
  /** Sends; a rejection puts the text and attachments back in the composer, so nothing is lost. */
  onSend: (submission: ComposerSubmission) => Promise<void>;
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
  const { draftKey, running, disabled = false, error, onSend, onStop, onNewConversation } = props;
  const t = useTranslation();
  const { api } = useServices();
  const sendKey = usePreferences((state) => state.sendKey);
  const projectId = useNavigation((state) => state.projectId);
  const openSettings = useNavigation((state) => state.openSettings);
  const text = useComposerStore((state) => state.drafts[draftKey] ?? '');
  const attachments = useComposerStore((state) => state.attachments[draftKey]) ?? [];
  const store = useComposerStore.getState;
  const components = useComponents(projectId);
  const [dragging, setDragging] = useState(false);
  const [paletteIndex, setPaletteIndex] = useState(0);
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
    () => (query === undefined ? [] : paletteEntries(query, components.data?.components ?? [])),
    [query, components.data],
  );
  const paletteOpen = query !== undefined && !paletteDismissed;
  const skillNames = useMemo(
    () =>
      new Set(
        (components.data?.components ?? [])
          .filter((entry) => entry.kind === 'skill' && entry.enabled)
          .map((entry) => entry.name),
      ),
    [components.data],
  );
  const uploading = attachments.some((item) => item.status === 'uploading');
  const ready = attachments.filter((item) => item.status === 'ready');
  const canSend = !running && !disabled && !uploading && (text.trim() !== '' || ready.length > 0);

  const setText = (value: string): void => {
    store().setDraft(draftKey, value);
    setPaletteDismissed(false);
    setPaletteIndex(0);
  };

  const addFiles = (files: readonly File[]): void => {
    for (const file of files) {
      nextLocalId += 1;
      const localId = `local-${String(nextLocalId)}`;
      const problem = checkAttachment(file);
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
        .upload(file, draftKey === '' ? {} : { conversationId: draftKey })
        .then((upload) => store().updateAttachment(draftKey, localId, { status: 'ready', upload }))
        .catch((uploadError: unknown) =>
          store().updateAttachment(draftKey, localId, {
            status: 'error',
            error: t('composer.uploadFailed', { name: file.name, reason: errorMessage(uploadError) }),
          }),
        );
    }
  };

  const submit = (): void => {
    if (!canSend) return;
    const parsed = parseSkillMessage(text, skillNames);
    const key = draftKey;
    const sent = { text, attachments };
    store().clear(key);
    onSend({
      text: parsed.text,
      attachments: ready.flatMap((item) => (item.upload === undefined ? [] : [item.upload.id])),
      skills: parsed.skill === undefined ? [] : [parsed.skill],
    }).then(
      () => {
        for (const item of sent.attachments)
          if (item.previewUrl !== undefined) URL.revokeObjectURL(item.previewUrl);
      },
      () => store().restore(key, sent.text, sent.attachments),
    );
  };

  const pick = (entry: PaletteEntry): void => {
    if (entry.kind === 'skill') {
      setText(`/${entry.name} `);
      setPaletteDismissed(true);
      textarea.current?.focus();
      return;
    }
    setText('');
    if (entry.name === 'new') onNewConversation();
    else if (entry.name === 'model') modelPicker.current?.focus();
    else if (entry.name === 'settings') openSettings();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.nativeEvent.isComposing || event.keyCode === 229) return;
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
    if (event.key === 'Escape' && running) {
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
      {paletteOpen && (
        <SlashPalette id={paletteId} entries={entries} activeIndex={paletteIndex} t={t} onPick={pick} />
      )}
      {dragging && <div className="drop-hint">{t('composer.dropHere')}</div>}
      <AttachmentTray
        attachments={attachments}
        t={t}
        onRemove={(localId) => store().removeAttachment(draftKey, localId)}
      />
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
        placeholder={t('composer.placeholder')}
        value={text}
        rows={1}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        disabled={disabled}
        role={paletteOpen ? 'combobox' : undefined}
        aria-expanded={paletteOpen ? true : undefined}
        aria-controls={paletteOpen ? paletteId : undefined}
        aria-autocomplete={paletteOpen ? 'list' : undefined}
        aria-activedescendant={
          paletteOpen && entries.length > 0 ? `${paletteId}-${String(paletteIndex)}` : undefined
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
