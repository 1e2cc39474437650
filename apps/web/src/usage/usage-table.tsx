import type { ReactElement } from 'react';
import type { Usage } from '@youyou/contracts';
import { useTranslation, type Translate, formatCount } from '../i18n/index.ts';
import './usage.css';

type Total = Usage['totals'][number];

let dollars: Intl.NumberFormat | undefined;

/**
 * A group's cost as a person reads it: dollars, "unknown" when no run had prices, and a mark when
 * some runs of the group had none (their cost is missing from the sum).
 */
export function costText(total: Pick<Total, 'cost' | 'unpriced_runs'>, t: Translate): string {
  if (total.cost === null || total.cost === undefined) return t('usage.costUnknown');
  dollars ??= new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
    maximumFractionDigits: 4,
  });
  const text = dollars.format(total.cost);
  return (total.unpriced_runs ?? 0) > 0 ? t('usage.costPartial', { cost: text }) : text;
}

/** The sum of some groups (the summary line and the conversation's usage). */
export function sumTotals(totals: readonly Total[]): Total {
  let cost: number | null = null;
  for (const total of totals)
    if (total.cost !== null && total.cost !== undefined) cost = (cost ?? 0) + total.cost;
  return totals.reduce<Total>(
    (all, total) => ({
      ...all,
      runs: all.runs + total.runs,
      input_tokens: all.input_tokens + total.input_tokens,
      output_tokens: all.output_tokens + total.output_tokens,
      tool_calls: all.tool_calls + total.tool_calls,
      duration_ms: all.duration_ms + total.duration_ms,
      cache_read_tokens: (all.cache_read_tokens ?? 0) + (total.cache_read_tokens ?? 0),
      cache_write_tokens: (all.cache_write_tokens ?? 0) + (total.cache_write_tokens ?? 0),
      unpriced_runs: (all.unpriced_runs ?? 0) + (total.unpriced_runs ?? 0),
    }),
    {
      key: null,
      runs: 0,
      input_tokens: 0,
      output_tokens: 0,
      tool_calls: 0,
      duration_ms: 0,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      unpriced_runs: 0,
      cost,
    },
  );
}

/** Usage totals as a table: one row per group, tokens (cache included), calls, time and cost. */
export function UsageTable({
  totals,
  groupLabel,
  labelOf,
}: {
  totals: readonly Total[];
  groupLabel: string;
  labelOf: (key: string | null) => string;
}): ReactElement {
  const t = useTranslation();
  return (
    <table className="usage-table">
      <thead>
        <tr>
          <th scope="col">{groupLabel}</th>
          <th scope="col">{t('usage.runs')}</th>
          <th scope="col">{t('usage.input')}</th>
          <th scope="col">{t('usage.cacheRead')}</th>
          <th scope="col">{t('usage.cacheWrite')}</th>
          <th scope="col">{t('usage.output')}</th>
          <th scope="col">{t('usage.toolCalls')}</th>
          <th scope="col">{t('usage.duration')}</th>
          <th scope="col">{t('usage.cost')}</th>
        </tr>
      </thead>
      <tbody>
        {totals.map((total) => (
          <tr key={total.key ?? '(none)'}>
            <th scope="row">{labelOf(total.key)}</th>
            <td>{formatCount(total.runs)}</td>
            <td>{formatCount(total.input_tokens)}</td>
            <td>{formatCount(total.cache_read_tokens ?? 0)}</td>
            <td>{formatCount(total.cache_write_tokens ?? 0)}</td>
            <td>{formatCount(total.output_tokens)}</td>
            <td>{formatCount(total.tool_calls)}</td>
            <td>{t('usage.seconds', { seconds: (total.duration_ms / 1000).toFixed(1) })}</td>
            <td>{costText(total, t)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
