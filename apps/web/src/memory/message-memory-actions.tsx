import { useMutation, useQueryClient } from '@tanstack/react-query';
import { isApiError } from '@youyou/client';
import { MEMORY_CONTENT_MAX, MEMORY_TYPES, type MemoryScope, type MemoryType } from '@youyou/contracts';
import { useState, type ReactElement } from 'react';
import { errorMessage } from '../api/index.ts';
import { useTranslation, type Translate } from '../i18n/index.ts';
import { ListIcon, SparkIcon } from '../icons/index.ts';
import { useNavigation } from '../navigation/index.ts';
import { useConversationQuery } from '../queries/index.ts';
import { useOptionalServices, useServices } from '../services/index.ts';
import { Dialog } from '../ui/index.ts';
import { ContextReportDialog } from './context-report-dialog.tsx';
import { MEMORY_KEY } from './memory-queries.ts';

/** A memory failure in words: "memory is off" says where to turn it on. */
export function memoryErrorText(t: Translate, error: unknown): string {
  return isApiError(error) && error.code === 'MEMORY_DISABLED' ? t('memory.off') : errorMessage(error);
}

function RememberDialog({
  open,
  text,
  runId,
  conversationId,
  onClose,
}: {
  open: boolean;
  text: string;
  runId: string;
  conversationId: string;
  onClose: () => void;
}): ReactElement {
  const t = useTranslation();
  const conversation = useConversationQuery(conversationId);
  const projectId = conversation.data?.conversation.project_id ?? null;
  const { api } = useServices();
  const queryClient = useQueryClient();
  const openSettings = useNavigation((state) => state.openSettings);
  const [content, setContent] = useState(() => text.slice(0, MEMORY_CONTENT_MAX));
  const [type, setType] = useState<MemoryType>('fact');
  const [scope, setScope] = useState<MemoryScope>('user');
  const save = useMutation({
    mutationFn: () =>
      api.createMemory({
        scope,
        ...(scope === 'project' && projectId !== null ? { project_id: projectId } : {}),
        type,
        content,
        source: 'manual',
        source_run_id: runId,
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: MEMORY_KEY });
      onClose();
    },
  });
  const disabled = isApiError(save.error) && save.error.code === 'MEMORY_DISABLED';
  return (
    <Dialog open={open} title={t('memory.rememberThis')} onClose={onClose} className="memory-dialog">
      <form
        className="memory-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (content.trim() !== '') save.mutate();
        }}
      >
        <h2 className="dialog-title">{t('memory.rememberThis')}</h2>
        <label className="field">
          <span>{t('memory.content')}</span>
          <textarea
            value={content}
            maxLength={MEMORY_CONTENT_MAX}
            rows={5}
            onChange={(event) => setContent(event.target.value)}
            required
          />
        </label>
        <div className="field-row">
          <label className="field">
            <span>{t('memory.type')}</span>
            <select value={type} onChange={(event) => setType(event.target.value as MemoryType)}>
              {MEMORY_TYPES.map((item) => (
                <option key={item} value={item}>
                  {t(`memory.type.${item}`)}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>{t('memory.scope')}</span>
            <select value={scope} onChange={(event) => setScope(event.target.value as MemoryScope)}>
              <option value="user">{t('memory.scope.user')}</option>
              {projectId !== null && <option value="project">{t('memory.scope.project')}</option>}
            </select>
          </label>
        </div>
        {save.error !== null && (
          <p className="form-error" role="alert">
            {memoryErrorText(t, save.error)}
            {disabled && (
              <button
                type="button"
                className="link-button"
                onClick={() => {
                  onClose();
                  openSettings('memory');
                }}
              >
                {t('memory.openSettings')}
              </button>
            )}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            {t('memory.cancel')}
          </button>
          <button type="submit" className="button primary" disabled={save.isPending || content.trim() === ''}>
            {t('memory.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/**
 * The assistant message's context and memory buttons: "What the model saw" (the run's assembly
 * report) and "Remember this" (a memory from the message, edited before it is stored).
 */
export function MessageMemoryActions(props: {
  runId: string;
  conversationId: string;
  text: string;
}): ReactElement | null {
  // A message drawn outside the app (a test, an export preview) has no server to ask.
  return useOptionalServices() === undefined ? null : <MemoryActionsMenu {...props} />;
}

function MemoryActionsMenu({
  runId,
  conversationId,
  text,
}: {
  runId: string;
  conversationId: string;
  text: string;
}): ReactElement {
  const t = useTranslation();
  // The dialogs (and their queries) exist only while open: every answer in view has this menu.
  const [dialog, setDialog] = useState<'report' | 'remember' | undefined>(undefined);
  return (
    <>
      <button
        type="button"
        className="icon-button"
        aria-label={t('context.whatModelSaw')}
        title={t('context.whatModelSaw')}
        data-testid="what-the-model-saw"
        onClick={() => setDialog('report')}
      >
        <ListIcon size={15} />
      </button>
      <button
        type="button"
        className="icon-button"
        aria-label={t('memory.rememberThis')}
        title={t('memory.rememberThis')}
        onClick={() => setDialog('remember')}
      >
        <SparkIcon size={15} />
      </button>
      {dialog === 'report' && <ContextReportDialog runId={runId} open onClose={() => setDialog(undefined)} />}
      {dialog === 'remember' && (
        <RememberDialog
          open
          text={text}
          runId={runId}
          conversationId={conversationId}
          onClose={() => setDialog(undefined)}
        />
      )}
    </>
  );
}
