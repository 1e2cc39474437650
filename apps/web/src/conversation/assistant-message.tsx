import { memo, useMemo, type ReactElement } from 'react';
import type { RunUsage } from '@youyou/contracts';
import {
  collapseRetryNotices,
  processSummary,
  splitProcessParts,
  type RunView,
} from '../conversation-state/index.ts';
import { formatCount, useTranslation, type Translate } from '../i18n/index.ts';
import {
  AlertIcon,
  BrainIcon,
  CheckIcon,
  ChevronIcon,
  CopyIcon,
  RefreshIcon,
  ToolIcon,
} from '../icons/index.ts';
import { useCopy } from '../markdown/index.ts';
import { MessageMemoryActions } from '../memory/message-memory-actions.tsx';
import { Parts } from '../parts/index.ts';
import { usePreferences } from '../preferences/index.ts';
import { ReplayButton } from '../replay/index.ts';
import { BranchSwitcher } from './branch-switcher.tsx';
import { useConversationUi } from './conversation-ui-store.ts';
import { textOfMessage } from './user-message.tsx';

export interface AssistantMessageProps {
  run: RunView;
  isLast: boolean;
  busy: boolean;
  onRegenerate: (messageId: string) => void;
  onSelectBranch: (messageId: string) => void;
}

/** "Thought for 12 s · 3 tools" (spec §4.2), in the language in use. */
export function summaryText(t: Translate, summary: ReturnType<typeof processSummary>): string {
  const pieces: string[] = [];
  if (summary.seconds !== undefined) {
    pieces.push(
      t(summary.thought ? 'conversation.thoughtFor' : 'conversation.workedFor', { seconds: summary.seconds }),
    );
  } else if (summary.thought) pieces.push(t('conversation.thought'));
  if (summary.tools > 0)
    pieces.push(
      summary.tools === 1 ? t('conversation.tool') : t('conversation.tools', { count: summary.tools }),
    );
  if (summary.failedTools > 0) pieces.push(t('conversation.toolsFailed', { count: summary.failedTools }));
  return pieces.join(' · ');
}

/**
 * The answer's footer: model, time and tokens. A run stopped or interrupted before the provider
 * reported any counts is stored with zeros, so zero tokens reads as "not recorded" ("—"), never
 * as "0 in / 0 out".
 */
export function usageText(t: Translate, modelId: string | null | undefined, usage: RunUsage): string {
  const model = (modelId ?? '').split('/').pop() ?? '';
  const seconds = (usage.duration_ms / 1000).toFixed(1);
  if (usage.input_tokens + usage.output_tokens > 0) {
    return t('conversation.usage', {
      model,
      seconds,
      input: formatCount(usage.input_tokens),
      output: formatCount(usage.output_tokens),
    });
  }
  return usage.duration_ms > 0
    ? t('conversation.usageNoTokens', { model, seconds })
    : t('conversation.usageNone', { model });
}

/** The notice a completed answer ends with when the provider said it ended early or refused. */
const FINISH_NOTICES = {
  length: 'conversation.finishLength',
  content_filter: 'conversation.finishFilter',
  refusal: 'conversation.finishRefusal',
} as const;

/**
 * The answer of one run. While it runs, reasoning and tool calls show live; once it has ended,
 * they fold into one summary line that expands on click (or stay open: a preference). Interrupted,
 * cancelled and failed answers are marked, with "Resend".
 */
export const AssistantMessage = memo(function AssistantMessage(props: AssistantMessageProps): ReactElement {
  const { run, isLast, busy, onRegenerate, onSelectBranch } = props;
  const t = useTranslation();
  const { copied, copy } = useCopy();
  const foldPreference = usePreferences((state) => state.fold);
  const toggled = useConversationUi((state) => state.toggledRuns.has(run.run.id));
  const toggleRun = useConversationUi((state) => state.toggleRun);
  const message = run.assistant;
  const settled = message.status !== 'pending' && message.status !== 'streaming';
  const { process, answer } = useMemo(
    () => splitProcessParts(collapseRetryNotices(message.parts)),
    [message.parts],
  );
  const summary = useMemo(() => processSummary(run, process), [run, process]);
  const foldable = settled && process.length > 0;
  const folded = foldable && (foldPreference === 'fold') !== toggled;
  const text = textOfMessage(message);
  const ended =
    message.status === 'interrupted' || message.status === 'cancelled' || message.status === 'failed';
  const finish =
    message.status === 'complete' &&
    message.finish_reason !== undefined &&
    message.finish_reason in FINISH_NOTICES
      ? (message.finish_reason as keyof typeof FINISH_NOTICES)
      : undefined;

  return (
    <div
      className={`message assistant-message status-${message.status}${finish === undefined ? '' : ` finish-${finish}`}`}
      data-message-id={message.id}
      data-finish-reason={finish}
      data-role="assistant"
      data-status={message.status}
      aria-busy={!settled}
    >
      {foldable && (
        <button
          type="button"
          className="process-summary"
          aria-expanded={!folded}
          onClick={() => toggleRun(run.run.id)}
          data-testid="process-summary"
          title={folded ? t('conversation.showProcess') : t('conversation.hideProcess')}
        >
          {summary.thought ? <BrainIcon size={15} /> : <ToolIcon size={15} />}
          <span>{summaryText(t, summary)}</span>
          <ChevronIcon size={14} className={folded ? 'chevron' : 'chevron open'} />
        </button>
      )}
      {(!foldable || !folded) && process.length > 0 && (
        <div className={`process-parts${foldable ? ' expanded' : ''}`}>
          <Parts parts={process} />
        </div>
      )}
      {finish === 'refusal' ? (
        <div className="refusal-text" data-testid="refusal">
          <Parts parts={answer} />
        </div>
      ) : (
        <Parts parts={answer} />
      )}
      {finish !== undefined && (
        <div className={`run-mark finish ${finish}`} role="status" data-testid="finish-notice">
          <AlertIcon size={15} />
          <span>{t(FINISH_NOTICES[finish])}</span>
        </div>
      )}
      {!settled && message.parts.length === 0 && (
        <div className="waiting" role="status">
          <span className="typing-dots" aria-hidden="true">
            <span />
            <span />
            <span />
          </span>
          <span className="visually-hidden">{t('conversation.waiting')}</span>
        </div>
      )}
      {ended && (
        <div className={`run-mark ${message.status}`} role="status">
          <AlertIcon size={15} />
          <span>
            {message.status === 'interrupted'
              ? t('conversation.interrupted')
              : message.status === 'cancelled'
                ? t('conversation.cancelled')
                : t('conversation.failed')}
          </span>
          {isLast && (
            <button type="button" className="button" onClick={() => onRegenerate(message.id)} disabled={busy}>
              <RefreshIcon size={14} /> {t('conversation.resend')}
            </button>
          )}
        </div>
      )}
      {settled && (
        <div className="message-actions">
          <BranchSwitcher siblings={message.siblings} t={t} onSelect={onSelectBranch} />
          <button
            type="button"
            className="icon-button"
            aria-label={copied ? t('conversation.copied') : t('conversation.copy')}
            onClick={() => copy(text)}
            disabled={text === ''}
          >
            {copied ? <CheckIcon size={15} /> : <CopyIcon size={15} />}
          </button>
          <MessageMemoryActions runId={run.run.id} conversationId={run.run.conversation_id} text={text} />
          <ReplayButton runId={run.run.id} />
          {message.usage !== undefined && (
            <span className="message-meta">{usageText(t, message.model_id, message.usage)}</span>
          )}
          {isLast && !ended && (
            <button
              type="button"
              className="icon-button"
              aria-label={t('conversation.regenerate')}
              onClick={() => onRegenerate(message.id)}
              disabled={busy}
            >
              <RefreshIcon size={15} />
            </button>
          )}
        </div>
      )}
    </div>
  );
});
