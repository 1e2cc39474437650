/**
 * One measurement in a fresh process: `node --expose-gc child.ts <framework> <workload>`. Loads only
 * that framework's adapter, runs a small uncounted warm-up turn, collects garbage, then times one
 * full turn and prints a single RESULT_MARKER line for the runner.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { RESULT_MARKER, type Measurement, type MeasurementSuccess } from './measurement.ts';
import {
  DELTA_TEXT,
  FINAL_ANSWER,
  TEXT_DELTA_COUNT,
  TOOL_STEP_COUNT,
  type FrameworkAdapter,
  type WorkloadName,
} from './workload.ts';

const WARM_UP_DELTAS = 10_000;
const WARM_UP_STEPS = 100;
const STEP_WINDOW = 100;

function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

async function measureTextStream(adapter: FrameworkAdapter, deltaCount: number) {
  const warmUp = await adapter.prepareTextStream(WARM_UP_DELTAS);
  await warmUp.run();
  await warmUp.close();
  collectGarbage();

  const prepared = await adapter.prepareTextStream(deltaCount);
  const start = performance.now();
  const result = await prepared.run();
  const elapsedMs = performance.now() - start;
  await prepared.close();

  if (result.deltas !== deltaCount || result.characters !== deltaCount * DELTA_TEXT.length) {
    throw new Error(
      `consumer saw ${result.deltas} deltas / ${result.characters} characters, expected ${deltaCount} / ${deltaCount * DELTA_TEXT.length}`,
    );
  }
  return { elapsedMs, throughput: (deltaCount / elapsedMs) * 1000 };
}

async function measureToolLoop(adapter: FrameworkAdapter, stepCount: number) {
  const warmUp = await adapter.prepareToolLoop(WARM_UP_STEPS, () => {});
  await warmUp.run();
  await warmUp.close();
  collectGarbage();

  // stamps[step] is when the tool ran for that step; stamps[0] is the start of the turn.
  const stamps = new Float64Array(stepCount + 1).fill(Number.NaN);
  let expectedStep = 1;
  const prepared = await adapter.prepareToolLoop(stepCount, (step) => {
    if (step !== expectedStep) throw new Error(`tool ran for step ${step}, expected ${expectedStep}`);
    stamps[step] = performance.now();
    expectedStep++;
  });
  const start = performance.now();
  stamps[0] = start;
  const result = await prepared.run();
  const elapsedMs = performance.now() - start;
  await prepared.close();

  if (result.toolCalls !== stepCount || expectedStep !== stepCount + 1) {
    throw new Error(
      `consumer saw ${result.toolCalls} tool results, tool ran ${expectedStep - 1} times, expected ${stepCount}`,
    );
  }
  if (result.finalText !== FINAL_ANSWER)
    throw new Error(`final answer was ${JSON.stringify(result.finalText)}`);
  const window = Math.min(STEP_WINDOW, Math.floor(stepCount / 2));
  const stampAt = (index: number): number => stamps[index] ?? Number.NaN;
  return {
    elapsedMs,
    throughput: (stepCount / elapsedMs) * 1000,
    firstWindowMicrosPerStep: ((stampAt(window) - stampAt(0)) / window) * 1000,
    lastWindowMicrosPerStep: ((stampAt(stepCount) - stampAt(stepCount - window)) / window) * 1000,
  };
}

async function main(): Promise<Measurement> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { deltas: { type: 'string' }, steps: { type: 'string' } },
  });
  const [framework = '', workload = ''] = positionals;
  try {
    const module = (await import(`./frameworks/${framework}.ts`)) as { adapter: FrameworkAdapter };
    const measured =
      (workload as WorkloadName) === 'text-stream'
        ? await measureTextStream(module.adapter, Number(values.deltas ?? TEXT_DELTA_COUNT))
        : (workload as WorkloadName) === 'tool-loop'
          ? await measureToolLoop(module.adapter, Number(values.steps ?? TOOL_STEP_COUNT))
          : undefined;
    if (measured === undefined) throw new Error(`unknown workload ${JSON.stringify(workload)}`);
    const success: MeasurementSuccess = {
      ok: true,
      framework,
      workload,
      ...measured,
      maxRssKilobytes: process.resourceUsage().maxRSS,
    };
    return success;
  } catch (error) {
    if (!(error instanceof Error)) return { ok: false, framework, workload, error: String(error) };
    const summary = `${error.name}: ${error.message}`.replaceAll('\n', ' ');
    return {
      ok: false,
      framework,
      workload,
      error: summary,
      ...(error.stack ? { detail: error.stack } : {}),
    };
  }
}

const measurement = await main();
process.stdout.write(`${RESULT_MARKER}${JSON.stringify(measurement)}\n`);
// A framework may leave timers or handles open; the measurement is done, so do not wait for them.
process.exit(measurement.ok ? 0 : 1);
