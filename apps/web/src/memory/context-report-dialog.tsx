import type { ContextAssemblyReport, ContextSlot, ContextTrim } from '@youyou/contracts';
import { useState, type ReactElement } from 'react';
import { errorMessage } from '../api/index.ts';
import { formatCount, useTranslation, type MessageKey, type Translate } from '../i18n/index.ts';
import { CloseIcon } from '../icons/index.ts';
import { Dialog } from '../ui/index.ts';
import { useContextReports } from './memory-queries.ts';
import './memory.css';

const SLOT_LABELS: Record<ContextSlot, MessageKey> = {
  system: 'context.slot.system',
  memory: 'context.slot.memory',
  knowledge: 'context.slot.knowledge',
  history: 'context.slot.history',
  current_turn: 'context.slot.current_turn',
  tool_results: 'context.slot.tool_results',
};

/** One trim as a sentence: what, how, tokens before → after, and why. */
export function trimText(t: Translate, trim: ContextTrim): string {
  return `${t('context.trim', {
    item: trim.item,
    kind: t(trim.kind === 'excerpted' ? 'context.kind.excerpted' : 'context.kind.dropped'),
    before: formatCount(trim.tokens_before),
    after: formatCount(trim.tokens_after),
    reason: t(`context.reason.${trim.reason}`),
  })}${trim.note === undefined ? '' : ` — ${trim.note}`}`;
}

/**
 * One model call's assembly report: tokens per slot against the budget and every trim with its
 * reason (also drawn beside a replay's model calls).
 *
 * @example
 * <ContextReportView report={reports[0]} t={t} />
 */
export function ContextReportView({
  report,
  t,
}: {
  report: ContextAssemblyReport;
  t: Translate;
}): ReactElement {
  const off = new Set(report.off ?? []);
  return (
    <div className="context-report" data-testid="context-report">
      <p className="context-summary">
        {t('context.summary', {
          model: report.model_id,
          total: formatCount(report.total_tokens),
          budget: formatCount(report.budget_tokens),
          window: formatCount(report.context_window),
          reserve: formatCount(report.output_reserve_tokens),
          tools: formatCount(report.tools_tokens),
        })}
      </p>
      {report.over_budget && (
        <p className="context-warning" role="status">
          {t('context.overBudget')}
        </p>
      )}
      <table className="context-slots">
        <thead>
          <tr>
            <th scope="col">{t('context.slot')}</th>
            <th scope="col">{t('context.tokens')}</th>
            <th scope="col">{t('context.requested')}</th>
            <th scope="col">{t('context.cap')}</th>
            <th scope="col">{t('context.items')}</th>
          </tr>
        </thead>
        <tbody>
          {report.slots.map((slot) => (
            <tr key={slot.slot} data-slot={slot.slot}>
              <th scope="row">
                {t(SLOT_LABELS[slot.slot])}
                {off.has(slot.slot) && <span className="context-off"> · {t('context.off')}</span>}
              </th>
              <td>
                <span className="context-bar" aria-hidden="true">
                  <span
                    style={{
                      width: `${Math.min(100, (slot.tokens / Math.max(1, report.budget_tokens)) * 100)}%`,
                    }}
                  />
                </span>
                {formatCount(slot.tokens)}
              </td>
              <td>{formatCount(slot.requested_tokens)}</td>
              <td>{formatCount(slot.cap_tokens)}</td>
              <td>{slot.items}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3 className="context-trims-title">{t('context.trims')}</h3>
      {report.trims.length === 0 ? (
        <p className="context-no-trims">{t('context.noTrims')}</p>
      ) : (
        <ul className="context-trims" data-testid="context-trims">
          {report.trims.map((trim, index) => (
            <li key={index} data-reason={trim.reason} data-slot={trim.slot}>
              {trimText(t, trim)}
            </li>
          ))}
        </ul>
      )}
      <p className="field-hint">{t('context.estimator')}</p>
    </div>
  );
}

/**
 * "What the model saw" for one message (spec §4.10): per model call of its run, the tokens of each
 * slot against the budget, and every trim with its reason — so "why didn't it know X" has an answer.
 */
export function ContextReportDialog({
  runId,
  open,
  onClose,
}: {
  runId: string;
  open: boolean;
  onClose: () => void;
}): ReactElement {
  const t = useTranslation();
  const reports = useContextReports(runId, open);
  const [call, setCall] = useState(0);
  const list = reports.data ?? [];
  const report = list[Math.min(call, list.length - 1)];
  return (
    <Dialog open={open} title={t('context.title')} onClose={onClose} className="context-report-dialog">
      <header className="dialog-header">
        <h2>{t('context.title')}</h2>
        <button type="button" className="icon-button" aria-label={t('context.close')} onClick={onClose}>
          <CloseIcon />
        </button>
      </header>
      {reports.isPending ? (
        <p role="status">{t('context.loading')}</p>
      ) : reports.isError ? (
        <p role="alert">{errorMessage(reports.error)}</p>
      ) : report === undefined ? (
        <p>{t('context.none')}</p>
      ) : (
        <>
          {list.length > 1 && (
            <div className="context-calls" role="tablist">
              {list.map((entry, index) => (
                <button
                  key={entry.call_index}
                  type="button"
                  role="tab"
                  aria-selected={index === call}
                  className={`chip${index === call ? ' active' : ''}`}
                  onClick={() => setCall(index)}
                >
                  {t('context.call', { index: index + 1 })}
                </button>
              ))}
            </div>
          )}
          <ContextReportView report={report} t={t} />
        </>
      )}
    </Dialog>
  );
}
