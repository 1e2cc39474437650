// `node --conditions=@youyou/source --import tsx bench/server/executable.ts [--starts 5]`: the single
// executable against the bundle run by node (what `npm start` runs): file size, cold start from
// spawn to the first 200 of GET /api/health on an existing data directory, the CPU time the
// process used up to then, idle RSS after 3 s. Starts are interleaved (one of each in turn), and a
// minimal node:http server answering 200 gives the floor of a Node process's cold start.
// Targets (issue 17): cold start < 300 ms, idle RSS < 100 MB.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BUNDLE_FILE, buildServerBundle } from '@youyou/server';
import { memoryOf, temporaryFolder } from './support.ts';

// --before <file>: another build of the executable (a copy of an older one) measured in the same
// run, interleaved with the others.
const { values } = parseArgs({
  options: { starts: { type: 'string', default: '5' }, before: { type: 'string' } },
});
const starts = Number(values.starts);
const REPOSITORY = join(import.meta.dirname, '../..');
const EXECUTABLE = join(REPOSITORY, 'dist', `youyou-${process.platform}-${process.arch}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Started {
  ms: number;
  /** User + system CPU time of the process (all its threads) when the first 200 arrived. */
  cpuMs: number;
  pid: number;
  stop(): Promise<void>;
}

/** /proc/<pid>/stat's utime + stime, in USER_HZ ticks (100 a second on Linux). */
async function cpuTimeMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The floor: a Node process that listens and answers 200, printing a URL as `serve` does. */
const MINIMAL_SERVER = `const server = require('node:http').createServer((request, response) => response.end('{}'));
server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port + '/?token=none'));
process.on('SIGTERM', () => server.close());`;

async function coldStart(command: string[], dataDirectory: string, home: string): Promise<Started> {
  const started = performance.now();
  const [file = '', ...argv] = command;
  const child = spawn(
    file,
    [...argv, 'serve', '--port', '0', '--data-dir', dataDirectory, '--log-level', 'warn'],
    {
      env: { PATH: process.env['PATH'] ?? '', HOME: home },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const login = await new Promise<RegExpExecArray>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = /(http:\/\/[^\s/]+)\/\?token=(\S+)/.exec(output);
      if (match !== null) resolve(match);
    });
    child.once('exit', () => reject(new Error(`${file} exited:\n${output}`)));
  });
  const response = await fetch(`${login[1] ?? ''}/api/health`, {
    headers: { authorization: `Bearer ${login[2] ?? ''}` },
  });
  await response.arrayBuffer();
  const ms = performance.now() - started;
  const cpuMs = await cpuTimeMs(child.pid ?? 0);
  if (response.status !== 200) throw new Error(`health answered ${response.status}`);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return {
    ms,
    cpuMs,
    pid: child.pid ?? 0,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

if (!existsSync(EXECUTABLE)) {
  const built = spawnSync(process.execPath, ['--conditions=@youyou/source', 'deploy/sea/build.ts'], {
    cwd: REPOSITORY,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('building the executable failed');
}
await buildServerBundle();
const folder = await temporaryFolder('executable');
const variants = [
  { label: 'single executable', command: [EXECUTABLE], file: EXECUTABLE as string | undefined },
  ...(values.before === undefined
    ? []
    : [
        {
          label: `single executable, before (${values.before})`,
          command: [values.before],
          file: values.before,
        },
      ]),
  {
    label: 'bundle run by node (npm start)',
    // The flag npm start passes (package.json).
    command: [process.execPath, '--max-semi-space-size=1', BUNDLE_FILE],
    file: BUNDLE_FILE as string | undefined,
  },
  {
    label: 'baseline: minimal node:http server answering 200',
    command: [process.execPath, '-e', MINIMAL_SERVER],
    file: undefined,
  },
].map((variant, index) => ({
  ...variant,
  home: join(folder.path, `home-${index}`),
  dataDirectory: join(folder.path, `data-${index}`),
  times: [] as number[],
  cpu: [] as number[],
  memory: { residentMb: Number.NaN, privateMb: Number.NaN },
}));
const rows: {
  label: string;
  bytes: number | undefined;
  coldMs: number;
  worstMs: number;
  cpuMs: number;
  rssMb: number;
  privateMb: number;
}[] = [];
try {
  // The first start creates the data directory (and unpacks the UI); the measured ones reopen it.
  for (const variant of variants)
    await (await coldStart(variant.command, variant.dataDirectory, variant.home)).stop();
  for (let index = 0; index < starts; index++) {
    for (const variant of variants) {
      const server = await coldStart(variant.command, variant.dataDirectory, variant.home);
      variant.times.push(server.ms);
      variant.cpu.push(server.cpuMs);
      if (index === starts - 1) {
        await sleep(3_000);
        variant.memory = await memoryOf(server.pid);
      }
      await server.stop();
    }
  }
  for (const variant of variants) {
    rows.push({
      label: variant.label,
      bytes: variant.file === undefined ? undefined : (await stat(variant.file)).size,
      coldMs: median(variant.times),
      worstMs: Math.max(...variant.times),
      cpuMs: median(variant.cpu),
      rssMb: variant.memory.residentMb,
      privateMb: variant.memory.privateMb,
    });
  }
} finally {
  await folder.remove();
}
const floor = await bareNodeMemory();
const sea = rows.find((row) => row.label === 'single executable');
const bundle = rows.find((row) => row.label.startsWith('bundle'));
const lines = [
  `Cold start: spawn to the first 200 of GET /api/health on an existing data directory, median and worst of ${starts} interleaved starts, and the CPU time (user + system, all threads) the process had used by then; idle RSS (and its private, anonymous part) from /proc after 3 s.`,
  '',
  '| how it runs | file size | cold start | worst | CPU to the first 200 | target < 300 ms | idle RSS | private | target < 100 MB |',
  '| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | --- |',
  ...rows.map((row) => {
    const baseline = row.bytes === undefined;
    return `| ${row.label} | ${baseline ? '' : `${((row.bytes ?? 0) / 1e6).toFixed(1)} MB`} | ${row.coldMs.toFixed(0)} ms | ${row.worstMs.toFixed(0)} ms | ${row.cpuMs.toFixed(0)} ms | ${baseline ? '' : row.coldMs < 300 ? 'met' : 'missed'} | ${row.rssMb.toFixed(0)} MB | ${row.privateMb.toFixed(0)} MB | ${baseline ? '' : row.rssMb < 100 ? 'met' : 'missed'} |`;
  }),
  `| baseline: node idling on an empty script | | | | | | ${floor.residentMb.toFixed(0)} MB | ${floor.privateMb.toFixed(0)} MB | |`,
];
if (sea !== undefined && bundle !== undefined)
  lines.push(
    '',
    `Executable / bundle: cold start ×${(sea.coldMs / bundle.coldMs).toFixed(2)}, idle RSS ×${(sea.rssMb / bundle.rssMb).toFixed(2)}.`,
  );
process.stdout.write(`${lines.join('\n')}\n`);

/** The floor every row stands on: this Node binary running nothing, after the same 3 s. */
async function bareNodeMemory(): Promise<{ residentMb: number; privateMb: number }> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1_000)'], { stdio: 'ignore' });
  try {
    await sleep(3_000);
    return await memoryOf(child.pid ?? 0);
  } finally {
    child.kill();
  }
}
