import { useQuery } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { errorMessage } from '../api/index.ts';
import { useTranslation, formatCount } from '../i18n/index.ts';
import { CloseIcon } from '../icons/index.ts';
import { useServices } from '../services/index.ts';
import { Dialog } from '../ui/index.ts';
import { costText, sumTotals, UsageTable } from './usage-table.tsx';

/** A conversation's usage from its menu (spec §4.17): its runs and their sub-agents, by model. */
export function ConversationUsageDialog({
  conversationId,
  title,
  onClose,
}: {
  conversationId: string;
  title: string;
  onClose: () => void;
}): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const usage = useQuery({
    queryKey: ['usage', 'conversation', conversationId],
    queryFn: () => api.conversationUsage(conversationId, 'model'),
  });
  const totals = usage.data?.totals ?? [];
  const sum = sumTotals(totals);
  const heading = t('usage.ofConversation', { title });
  return (
    <Dialog open title={heading} onClose={onClose} className="conversation-usage-dialog">
      <div className="dialog-header">
        <h2>{heading}</h2>
        <button type="button" className="icon-button" aria-label={t('usage.close')} onClick={onClose}>
          <CloseIcon />
        </button>
      </div>
      {usage.isError && (
        <p className="field-error" role="alert">
          {errorMessage(usage.error)}
        </p>
      )}
      {usage.isSuccess && totals.length === 0 && <p className="empty-state">{t('usage.none')}</p>}
      {totals.length > 0 && (
        <>
          <p className="settings-intro" data-testid="conversation-usage-summary">
            {t('usage.summaryWithCost', {
              runs: formatCount(sum.runs),
              input: formatCount(sum.input_tokens),
              cached: formatCount(sum.cache_read_tokens ?? 0),
              output: formatCount(sum.output_tokens),
              cost: costText(sum, t),
            })}
          </p>
          <div className="usage-scroll">
            <UsageTable
              totals={totals}
              groupLabel={t('usage.byModel')}
              labelOf={(key) => key ?? t('usage.unknown')}
            />
          </div>
        </>
      )}
    </Dialog>
  );
}
