import { memo, type ReactElement } from 'react';
import type { RunView } from '../conversation-state/index.ts';
import { useTranslation } from '../i18n/index.ts';
import { ErrorBoundary } from '../ui/index.ts';
import { AssistantMessage } from './assistant-message.tsx';
import { UserMessage } from './user-message.tsx';

export interface RunRowProps {
  run: RunView;
  isLast: boolean;
  busy: boolean;
  onEdit: (run: RunView, text: string) => void;
  onRegenerate: (messageId: string) => void;
  onSelectBranch: (messageId: string) => void;
}

/** One turn: the person's message and the answer. The unit the virtual list measures. */
export const RunRow = memo(function RunRow({
  run,
  isLast,
  busy,
  onEdit,
  onRegenerate,
  onSelectBranch,
}: RunRowProps): ReactElement {
  const t = useTranslation();
  return (
    <div className="run-row" data-run-id={run.run.id}>
      <ErrorBoundary
        fallback={(error, retry) => (
          <div className="error-part" role="alert">
            <span>{t('common.renderFailed', { message: error.message })}</span>
            <button type="button" className="button" onClick={retry}>
              {t('common.retry')}
            </button>
          </div>
        )}
      >
        <UserMessage
          message={run.user}
          canEdit={!busy}
          onEdit={(text) => onEdit(run, text)}
          onSelectBranch={onSelectBranch}
        />
        <AssistantMessage
          run={run}
          isLast={isLast}
          busy={busy}
          onRegenerate={onRegenerate}
          onSelectBranch={onSelectBranch}
        />
      </ErrorBoundary>
    </div>
  );
});
