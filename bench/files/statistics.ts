// Small helpers shared by the file-channel benchmarks.

/** Median, mean and 95th percentile of a list of milliseconds. */
export function summarize(samples: readonly number[]): {
  median: number;
  mean: number;
  p95: number;
  count: number;
} {
  const sorted = [...samples].sort((left, right) => left - right);
  const at = (fraction: number): number =>
    sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
  const mean = sorted.reduce((total, value) => total + value, 0) / Math.max(1, sorted.length);
  return { median: at(0.5), mean, p95: at(0.95), count: sorted.length };
}

/** Formats milliseconds with three significant decimals. */
export function milliseconds(value: number): string {
  return `${value.toFixed(value < 10 ? 3 : 1)} ms`;
}

/** Reads `--name value` from the command line, as a number. */
export function numberOption(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index === -1 ? undefined : Number(process.argv[index + 1]);
  return value === undefined || Number.isNaN(value) ? fallback : value;
}
