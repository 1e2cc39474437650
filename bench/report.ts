/** Turns the children's measurements into medians, ratios, target checks and markdown tables. */
import type { Measurement, MeasurementSuccess } from './measurement.ts';
import type { WorkloadName } from './workload.ts';

export interface Framework {
  id: string;
  label: string;
  /** A peer counts towards "fastest peer"; the baseline and YouYou do not. */
  peer: boolean;
}

/** The medians of one framework on one workload, over the processes that succeeded. */
export interface Row {
  framework: Framework;
  workload: WorkloadName;
  runs: Measurement[];
  succeeded: number;
  throughput?: number;
  firstWindowMicrosPerStep?: number;
  lastWindowMicrosPerStep?: number;
  maxRssKilobytes?: number;
  /** The first failure's first line, when any process failed. */
  failure?: string;
}

export interface TargetCheck {
  description: string;
  actual: string;
  met: boolean | undefined;
}

export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? Number.NaN;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? Number.NaN) + upper) / 2;
}

function medianOf(
  runs: readonly MeasurementSuccess[],
  pick: (run: MeasurementSuccess) => number | undefined,
): number | undefined {
  return median(runs.map(pick).filter((value): value is number => value !== undefined));
}

export function aggregate(framework: Framework, workload: WorkloadName, runs: Measurement[]): Row {
  const successes = runs.filter((run): run is MeasurementSuccess => run.ok);
  const firstFailure = runs.find((run) => !run.ok);
  const row: Row = { framework, workload, runs, succeeded: successes.length };
  const throughput = medianOf(successes, (run) => run.throughput);
  const first = medianOf(successes, (run) => run.firstWindowMicrosPerStep);
  const last = medianOf(successes, (run) => run.lastWindowMicrosPerStep);
  const rss = medianOf(successes, (run) => run.maxRssKilobytes);
  if (throughput !== undefined) row.throughput = throughput;
  if (first !== undefined) row.firstWindowMicrosPerStep = first;
  if (last !== undefined) row.lastWindowMicrosPerStep = last;
  if (rss !== undefined) row.maxRssKilobytes = rss;
  if (firstFailure !== undefined && !firstFailure.ok) {
    row.failure = firstFailure.error.slice(0, 160);
  }
  return row;
}

export function formatRate(value: number | undefined): string {
  if (value === undefined) return '—';
  if (value >= 1e6) return `${(value / 1e6).toFixed(2)}M`;
  if (value >= 1e4) return `${Math.round(value / 1e3)}k`;
  return Math.round(value).toLocaleString('en-US');
}

export function formatRatio(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '—';
  return `${value.toPrecision(3)}×`;
}

function formatMicros(value: number | undefined): string {
  return value === undefined ? '—' : value.toFixed(value < 100 ? 1 : 0);
}

function formatMegabytes(kilobytes: number | undefined): string {
  return kilobytes === undefined ? '—' : (kilobytes / 1024).toFixed(0);
}

function ratio(numerator: number | undefined, denominator: number | undefined): number | undefined {
  return numerator === undefined || denominator === undefined ? undefined : numerator / denominator;
}

function status(row: Row, repetitions: number): string {
  if (row.failure === undefined) return `${row.succeeded}/${repetitions} ok`;
  const cell = row.failure.replaceAll('|', '\\|');
  return `${row.succeeded}/${repetitions} ok — ${cell}`;
}

function growth(row: Row): number | undefined {
  return ratio(row.lastWindowMicrosPerStep, row.firstWindowMicrosPerStep);
}

/** One markdown table per workload, with ratios to the baseline and YouYou ÷ each framework. */
export function markdownTables(rows: readonly Row[], repetitions: number): string {
  const find = (workload: WorkloadName, id: string) =>
    rows.find((row) => row.workload === workload && row.framework.id === id);
  const lines: string[] = [];

  const textRows = rows.filter((row) => row.workload === 'text-stream');
  const textBaseline = find('text-stream', 'baseline')?.throughput;
  const textYouYou = find('text-stream', 'youyou')?.throughput;
  lines.push(
    `### W1 — one turn streaming text deltas`,
    '',
    '| Framework | deltas/s | vs baseline | YouYou ÷ this | peak RSS (MB) | runs |',
    '| --- | ---: | ---: | ---: | ---: | --- |',
  );
  for (const row of textRows) {
    lines.push(
      `| ${row.framework.label} | ${formatRate(row.throughput)} | ${formatRatio(ratio(row.throughput, textBaseline))} | ${formatRatio(ratio(textYouYou, row.throughput))} | ${formatMegabytes(row.maxRssKilobytes)} | ${status(row, repetitions)} |`,
    );
  }

  const toolRows = rows.filter((row) => row.workload === 'tool-loop');
  const toolBaseline = find('tool-loop', 'baseline')?.throughput;
  const toolYouYou = find('tool-loop', 'youyou')?.throughput;
  lines.push(
    '',
    `### W2 — one turn of sequential tool round trips`,
    '',
    '| Framework | steps/s | vs baseline | YouYou ÷ this | µs/step first 100 | µs/step last 100 | last ÷ first | peak RSS (MB) | runs |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  );
  for (const row of toolRows) {
    lines.push(
      `| ${row.framework.label} | ${formatRate(row.throughput)} | ${formatRatio(ratio(row.throughput, toolBaseline))} | ${formatRatio(ratio(toolYouYou, row.throughput))} | ${formatMicros(row.firstWindowMicrosPerStep)} | ${formatMicros(row.lastWindowMicrosPerStep)} | ${formatRatio(growth(row))} | ${formatMegabytes(row.maxRssKilobytes)} | ${status(row, repetitions)} |`,
    );
  }
  return lines.join('\n');
}

function fastestPeer(rows: readonly Row[], workload: WorkloadName): Row | undefined {
  let fastest: Row | undefined;
  for (const row of rows) {
    if (row.workload !== workload || !row.framework.peer || row.throughput === undefined) continue;
    if (fastest?.throughput === undefined || row.throughput > fastest.throughput) fastest = row;
  }
  return fastest;
}

/** The targets of issue 2: W1 ≥ 5× the fastest peer and within 3× of the baseline; W2 ≥ 10× and flat. */
export function checkTargets(rows: readonly Row[]): TargetCheck[] {
  const find = (workload: WorkloadName, id: string) =>
    rows.find((row) => row.workload === workload && row.framework.id === id);
  const checks: TargetCheck[] = [];
  const atLeast = (value: number | undefined, bound: number) =>
    value === undefined ? undefined : value >= bound;
  const atMost = (value: number | undefined, bound: number) =>
    value === undefined ? undefined : value <= bound;

  const textYouYou = find('text-stream', 'youyou');
  const textPeer = fastestPeer(rows, 'text-stream');
  const textVersusPeer = ratio(textYouYou?.throughput, textPeer?.throughput);
  checks.push({
    description: `W1: YouYou ≥ 5× the fastest peer (${textPeer?.framework.label ?? 'none'})`,
    actual: formatRatio(textVersusPeer),
    met: atLeast(textVersusPeer, 5),
  });
  const textBehindBaseline = ratio(find('text-stream', 'baseline')?.throughput, textYouYou?.throughput);
  checks.push({
    description: 'W1: YouYou within 3× of the baseline (baseline ÷ YouYou ≤ 3)',
    actual: formatRatio(textBehindBaseline),
    met: atMost(textBehindBaseline, 3),
  });

  const toolYouYou = find('tool-loop', 'youyou');
  const toolPeer = fastestPeer(rows, 'tool-loop');
  const toolVersusPeer = ratio(toolYouYou?.throughput, toolPeer?.throughput);
  checks.push({
    description: `W2: YouYou ≥ 10× the fastest peer (${toolPeer?.framework.label ?? 'none'})`,
    actual: formatRatio(toolVersusPeer),
    met: atLeast(toolVersusPeer, 10),
  });
  const toolGrowth = toolYouYou === undefined ? undefined : growth(toolYouYou);
  checks.push({
    description: 'W2: YouYou per-step cost flat (last 100 ÷ first 100 ≤ 1.5)',
    actual: formatRatio(toolGrowth),
    met: atMost(toolGrowth, 1.5),
  });
  return checks;
}

export function markdownTargets(checks: readonly TargetCheck[]): string {
  const verdict = (met: boolean | undefined) => (met === undefined ? 'n/a' : met ? 'met' : '**missed**');
  return [
    '| Target | Actual | |',
    '| --- | ---: | --- |',
    ...checks.map((check) => `| ${check.description} | ${check.actual} | ${verdict(check.met)} |`),
  ].join('\n');
}
