/**
 * `npm run bench`: every framework on every workload, each measurement in a fresh Node process
 * (child.ts), REPETITIONS processes each, interleaved round by round; then the medians as markdown
 * on stdout and in results/<date>.json + .md, then the extra benchmark scripts in EXTRA_BENCHMARKS.
 *
 * Options: --only youyou,baseline  --repetitions 3  --deltas 200000  --steps 1000  --timeout 90
 *          --skip-extras (leave out EXTRA_BENCHMARKS)
 *          --only turn-latency (an extra by its script's name: only the extras named, and only the
 *          frameworks named, if any)
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { RESULT_MARKER, type Measurement } from './measurement.ts';
import { aggregate, checkTargets, markdownTables, markdownTargets, type Framework } from './report.ts';
import { TEXT_DELTA_COUNT, TOOL_STEP_COUNT, type WorkloadName } from './workload.ts';

const FRAMEWORKS: readonly Framework[] = [
  { id: 'baseline', label: 'Raw async generator (baseline)', peer: false },
  { id: 'youyou', label: 'YouYou', peer: false },
  { id: 'ai-sdk', label: 'Vercel AI SDK', peer: true },
  { id: 'openai-agents', label: 'OpenAI Agents JS', peer: true },
  { id: 'langchain', label: 'LangChain', peer: true },
];

const WORKLOADS: readonly WorkloadName[] = ['text-stream', 'tool-loop'];

/**
 * Later benchmarks: standalone scripts run once each after the framework table, through tsx, with
 * their stdout copied into the report. A script that does not exist yet is skipped.
 */
const EXTRA_BENCHMARKS: readonly { name: string; script: string; timeoutMs?: number }[] = [
  { name: 'Parser throughput', script: 'parsers/parser-throughput.ts' },
  { name: 'build() with 300 file components', script: 'files/build-components.ts' },
  { name: 'File tool latency against a bare spawn', script: 'files/tool-latency.ts' },
  { name: 'Web UI: app shell size, a 2,000-message conversation in Chromium', script: 'web/web-ui.ts' },
  {
    name: 'Web UI at scale: a 10,000-message conversation, 200 Markdown deltas/s for 60 s, against plain text nodes',
    script: 'web/conversation-scale.ts',
  },
  {
    name: 'Web UI: first paint of a 200-message conversation, opened at its newest message',
    script: 'web/first-paint.ts',
  },
  {
    name: 'Server: events/s through the workbench against no persistence',
    script: 'server/event-throughput.ts',
  },
  { name: 'Server: SSE resume in a conversation of 100,000 events', script: 'server/resume-latency.ts' },
  { name: 'Server: cold start and idle memory', script: 'server/startup.ts' },
  { name: 'Server: 8 concurrent sub-agents, a 1 MB artifact edit + diff', script: 'server/subagents.ts' },
  { name: 'Server: a conversation of 10,000 messages', script: 'server/large-conversation.ts' },
  {
    name: 'MCP: a tool call through YouYou against the SDK client direct',
    script: 'server/mcp-tool-call.ts',
  },
  {
    name: 'Protocols: deltas/s over AG-UI and OpenAI-compatible streams against native SSE',
    script: 'server/protocol-throughput.ts',
  },
  { name: 'HITL: a card answered → the model’s next request', script: 'server/hitl-latency.ts' },
  {
    name: 'Per turn: OpenAI client and AG-UI HttpAgent TTFT, an MCP tool step, against the direct call',
    script: 'server/turn-latency.ts',
  },
  { name: 'search_files over 5,000 files against ripgrep', script: 'server/search-files.ts' },
  {
    name: 'Context assembly per turn at a 100,000-token history against naive concatenation',
    script: 'server/context-assembly.ts',
  },
  {
    name: "The default profile's system slot (prompt + every built-in tool) against the 3,000-token target",
    script: 'server/system-prompt-size.ts',
  },
  { name: "Documents: ingest MB/s per format against LangChain's loaders", script: 'documents/ingest.ts' },
  {
    name: 'Documents: full-text search over 100,000 chunks against raw FTS5 / ILIKE',
    script: 'documents/fts.ts',
    // Loading and indexing 100,000 chunks on both tiers takes minutes on a small machine.
    timeoutMs: 900_000,
  },
  {
    name: 'Extensions: a declarative HTTP tool call against a bare fetch, hot reload of an asset',
    script: 'server/extensions.ts',
  },
];

const EXTRA_TIMEOUT_MS = 120_000;
const benchFolder = dirname(fileURLToPath(import.meta.url));

const { values: options } = parseArgs({
  options: {
    only: { type: 'string' },
    repetitions: { type: 'string', default: '3' },
    deltas: { type: 'string', default: String(TEXT_DELTA_COUNT) },
    steps: { type: 'string', default: String(TOOL_STEP_COUNT) },
    timeout: { type: 'string', default: '90' },
    'skip-extras': { type: 'boolean', default: false },
  },
});
const repetitions = Number(options.repetitions);
const childTimeoutMs = Number(options.timeout) * 1000;
const selected = options.only?.split(',') ?? FRAMEWORKS.map((framework) => framework.id);
const frameworks = FRAMEWORKS.filter((framework) => selected.includes(framework.id));
const extraName = (script: string) => basename(script, '.ts');
// `--only` naming an extra narrows the extras to those named; naming none keeps them all.
const selectedExtras = EXTRA_BENCHMARKS.filter((extra) => selected.includes(extraName(extra.script)));
const extrasToRun = selectedExtras.length > 0 ? selectedExtras : EXTRA_BENCHMARKS;

/** Children run without loaders or inherited flags, and with every peer's tracing off. */
function childEnvironment(): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {
    ...process.env,
    LANGSMITH_TRACING: 'false',
    LANGCHAIN_TRACING_V2: 'false',
    OPENAI_AGENTS_DISABLE_TRACING: '1',
  };
  delete environment['NODE_OPTIONS'];
  return environment;
}

interface ProcessOutcome {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  timedOut: boolean;
}

function runProcess(commandArguments: readonly string[], timeoutMs: number): Promise<ProcessOutcome> {
  return new Promise((resolve) => {
    // Our packages resolve to their sources (the `@youyou/source` condition of their exports).
    const child = spawn(process.execPath, ['--conditions=@youyou/source', ...commandArguments], {
      cwd: benchFolder,
      env: childEnvironment(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, exitCode, timedOut });
    });
  });
}

async function measure(framework: Framework, workload: WorkloadName): Promise<Measurement> {
  const outcome = await runProcess(
    [
      '--expose-gc',
      join(benchFolder, 'child.ts'),
      framework.id,
      workload,
      '--deltas',
      String(options.deltas),
      '--steps',
      String(options.steps),
    ],
    childTimeoutMs,
  );
  const line = outcome.stdout.split('\n').find((candidate) => candidate.startsWith(RESULT_MARKER));
  if (line !== undefined) return JSON.parse(line.slice(RESULT_MARKER.length)) as Measurement;
  const reason = outcome.timedOut
    ? `timed out after ${childTimeoutMs / 1000} s`
    : `exited ${outcome.exitCode} without a result: ${outcome.stderr.trim().split('\n').slice(-3).join(' ')}`;
  return { ok: false, framework: framework.id, workload, error: reason };
}

function describe(measurement: Measurement): string {
  if (!measurement.ok) return `failed: ${measurement.error.split('\n')[0] ?? ''}`;
  const unit = measurement.workload === 'text-stream' ? 'deltas/s' : 'steps/s';
  return `${Math.round(measurement.throughput).toLocaleString('en-US')} ${unit} in ${measurement.elapsedMs.toFixed(0)} ms`;
}

/** Output with a markdown table goes in as it is; plain text goes in a code block. */
function asMarkdown(output: string): string {
  return output.split('\n').some((line) => line.startsWith('|')) ? output : `\`\`\`text\n${output}\n\`\`\``;
}

async function runExtraBenchmarks() {
  const results: { name: string; script: string; ok: boolean; output: string }[] = [];
  for (const extra of extrasToRun) {
    const path = join(benchFolder, extra.script);
    if (!existsSync(path)) {
      process.stderr.write(`${extra.name}: ${extra.script} does not exist yet, skipped\n`);
      continue;
    }
    process.stderr.write(`${extra.name}: running ${extra.script}\n`);
    const timeoutMs = extra.timeoutMs ?? EXTRA_TIMEOUT_MS;
    const outcome = await runProcess(['--import', 'tsx', path], timeoutMs);
    const ok = outcome.exitCode === 0 && !outcome.timedOut;
    const failure = outcome.timedOut
      ? `timed out after ${timeoutMs / 1000} s`
      : `exited ${outcome.exitCode}: ${outcome.stderr.trim()}`;
    results.push({
      name: extra.name,
      script: extra.script,
      ok,
      output: ok ? outcome.stdout.trim() : failure,
    });
  }
  return results;
}

const measurements = new Map<string, Measurement[]>();
const key = (framework: Framework, workload: WorkloadName) => `${framework.id}/${workload}`;
const started = Date.now();
// Other work on the machine skews every number; the report states the load it ran under.
const loadAtStart = loadavg()[0] ?? 0;
for (let round = 1; round <= repetitions; round++) {
  for (const workload of WORKLOADS) {
    for (const framework of frameworks) {
      const runs = measurements.get(key(framework, workload)) ?? [];
      measurements.set(key(framework, workload), runs);
      // A process that timed out once will likely time out again: do not spend the budget on it.
      if (runs.some((run) => !run.ok && run.error.startsWith('timed out'))) continue;
      const measurement = await measure(framework, workload);
      runs.push(measurement);
      process.stderr.write(
        `[${round}/${repetitions}] ${framework.id} ${workload}: ${describe(measurement)}\n`,
      );
    }
  }
}

const rows = WORKLOADS.flatMap((workload) =>
  frameworks.map((framework) =>
    aggregate(framework, workload, measurements.get(key(framework, workload)) ?? []),
  ),
);
const checks = checkTargets(rows);
const extras = options['skip-extras'] ? [] : await runExtraBenchmarks();
const date = new Date();
const machine = `${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} cores), Node ${process.version}, ${process.platform}/${process.arch}`;
const markdown = [
  `## YouYou benchmark — ${date.toISOString()}`,
  '',
  `${machine}. Medians of ${repetitions} fresh processes per cell; W1 = ${Number(options.deltas).toLocaleString('en-US')} deltas of 4 characters, W2 = ${Number(options.steps).toLocaleString('en-US')} tool round trips then an answer. Whole run: ${((Date.now() - started) / 1000).toFixed(0)} s; 1-minute load average ${loadAtStart.toFixed(2)} at the start, ${(loadavg()[0] ?? 0).toFixed(2)} at the end.`,
  '',
  ...(frameworks.length === 0
    ? []
    : [markdownTables(rows, repetitions), '', '### Targets (issue 2)', '', markdownTargets(checks)]),
  ...extras.flatMap((extra) => [
    '',
    `### ${extra.name} (${extra.script})`,
    '',
    extra.ok ? asMarkdown(extra.output) : `Failed: ${extra.output}`,
  ]),
  '',
].join('\n');

process.stdout.write(`${markdown}\n`);
const resultsFolder = join(benchFolder, 'results');
await mkdir(resultsFolder, { recursive: true });
const stem = date.toISOString().replaceAll(':', '-').slice(0, 19);
const json = {
  date: date.toISOString(),
  machine,
  repetitions,
  workloads: { textDeltas: Number(options.deltas), toolSteps: Number(options.steps) },
  rows: rows.map((row) => ({ ...row, framework: row.framework.id, label: row.framework.label })),
  targets: checks,
  extras,
};
await writeFile(join(resultsFolder, `${stem}.json`), `${JSON.stringify(json, null, 2)}\n`);
await writeFile(join(resultsFolder, `${stem}.md`), markdown);
process.stderr.write(`Wrote results/${stem}.json and results/${stem}.md\n`);
