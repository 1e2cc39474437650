import { useQuery } from '@tanstack/react-query';
import { useMemo, useState, type ReactElement } from 'react';
import type { Usage } from '@youyou/contracts';
import { errorMessage } from '../api/index.ts';
import { useTranslation, type MessageKey, formatCount } from '../i18n/index.ts';
import { useConversationList, useProjects } from '../queries/index.ts';
import { useServices } from '../services/index.ts';
import { costText, sumTotals, UsageTable } from '../usage/index.ts';

type Grouping = Usage['group_by'];
type Total = Usage['totals'][number];

const GROUPINGS: readonly { value: Grouping; label: MessageKey }[] = [
  { value: 'day', label: 'usage.byDay' },
  { value: 'model', label: 'usage.byModel' },
  { value: 'project', label: 'usage.byProject' },
  { value: 'conversation', label: 'usage.byConversation' },
];

const CHART = { width: 560, height: 180, gap: 4, label: 14 } as const;

/**
 * Tokens of each group as stacked bars (input below, output above): an SVG the page draws itself,
 * so no chart script is loaded for a dozen bars.
 */
function UsageChart({
  totals,
  labelOf,
}: {
  totals: readonly Total[];
  labelOf: (key: string | null) => string;
}): ReactElement {
  const t = useTranslation();
  const largest = Math.max(1, ...totals.map((total) => total.input_tokens + total.output_tokens));
  // A few groups get bars of a readable width, not the whole chart each.
  const barWidth = Math.min(
    48,
    Math.max(4, (CHART.width - CHART.gap * totals.length) / Math.max(1, totals.length)),
  );
  const plotHeight = CHART.height - CHART.label;
  return (
    <svg
      className="usage-chart"
      role="img"
      aria-label={t('usage.chartLabel')}
      viewBox={`0 0 ${String(CHART.width)} ${String(CHART.height)}`}
      data-testid="usage-chart"
    >
      {totals.map((total, index) => {
        const x = index * (barWidth + CHART.gap);
        const input = (total.input_tokens / largest) * plotHeight;
        const output = (total.output_tokens / largest) * plotHeight;
        const label = labelOf(total.key);
        return (
          <g key={total.key ?? '(none)'}>
            <title>
              {t('usage.barTitle', {
                label,
                input: formatCount(total.input_tokens),
                output: formatCount(total.output_tokens),
              })}
            </title>
            <rect
              className="usage-bar usage-input"
              x={x}
              y={plotHeight - input}
              width={barWidth}
              height={input}
            />
            <rect
              className="usage-bar usage-output"
              x={x}
              y={plotHeight - input - output}
              width={barWidth}
              height={output}
            />
            {barWidth >= 28 && (
              <text className="usage-bar-label" x={x + barWidth / 2} y={CHART.height - 2} textAnchor="middle">
                {label.length > 10 ? `${label.slice(0, 9)}…` : label}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}

/** Settings → Usage (spec §4.17): tokens, runs, tool calls and time by day, model, project or conversation. */
export function UsageSection(): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const [grouping, setGrouping] = useState<Grouping>('day');
  const usage = useQuery({ queryKey: ['usage', grouping], queryFn: () => api.usage(grouping) });
  const projects = useProjects();
  const conversations = useConversationList('');
  const labelOf = useMemo(() => {
    const names = new Map<string, string>();
    for (const project of projects.data ?? []) names.set(project.id, project.name);
    for (const page of conversations.data?.pages ?? [])
      for (const conversation of page.conversations)
        names.set(conversation.id, conversation.title === '' ? t('nav.untitled') : conversation.title);
    return (key: string | null): string =>
      key === null ? t(grouping === 'project' ? 'nav.ungrouped' : 'usage.unknown') : (names.get(key) ?? key);
  }, [projects.data, conversations.data, grouping, t]);
  const totals = usage.data?.totals ?? [];
  const sum = sumTotals(totals);

  return (
    <div className="settings-widget" data-widget="usage">
      <p className="settings-intro">
        {t('usage.summary', {
          runs: formatCount(sum.runs),
          input: formatCount(sum.input_tokens),
          output: formatCount(sum.output_tokens),
          tools: formatCount(sum.tool_calls),
        })}
        {sum.runs > 0 && ` · ${t('usage.costSummary', { cost: costText(sum, t) })}`}
      </p>
      <label className="field">
        <span>{t('usage.groupBy')}</span>
        <select value={grouping} onChange={(event) => setGrouping(event.target.value as Grouping)}>
          {GROUPINGS.map((option) => (
            <option key={option.value} value={option.value}>
              {t(option.label)}
            </option>
          ))}
        </select>
      </label>
      {usage.isError && (
        <p className="field-error" role="alert">
          {errorMessage(usage.error)}
        </p>
      )}
      {usage.isSuccess && totals.length === 0 && <p className="empty-state">{t('usage.none')}</p>}
      {totals.length > 0 && (
        <>
          <UsageChart totals={totals} labelOf={labelOf} />
          <p className="usage-legend">
            <span className="usage-swatch usage-input" /> {t('usage.input')}{' '}
            <span className="usage-swatch usage-output" /> {t('usage.output')}
          </p>
          <UsageTable
            totals={totals}
            groupLabel={t(GROUPINGS.find((option) => option.value === grouping)?.label ?? 'usage.byDay')}
            labelOf={labelOf}
          />
        </>
      )}
    </div>
  );
}
