/** What one child process reports back to the runner, as one JSON line after RESULT_MARKER. */

export const RESULT_MARKER = 'BENCH_RESULT ';

export interface MeasurementSuccess {
  ok: true;
  framework: string;
  workload: string;
  /** Wall time of the measured turn, from before the call to after the consumer's last event. */
  elapsedMs: number;
  /** Deltas per second (text-stream) or tool round trips per second (tool-loop). */
  throughput: number;
  /** tool-loop only: mean µs per round trip over the first and the last 100 steps. */
  firstWindowMicrosPerStep?: number;
  lastWindowMicrosPerStep?: number;
  /** Peak resident set size of the whole process, in kilobytes (`process.resourceUsage().maxRSS`). */
  maxRssKilobytes: number;
}

export interface MeasurementFailure {
  ok: false;
  framework: string;
  workload: string;
  /** One line: the error's name and message. */
  error: string;
  /** The stack, when there is one. */
  detail?: string;
}

export type Measurement = MeasurementSuccess | MeasurementFailure;
