// `node --conditions=development --import tsx bench/server/executable.ts [--starts 5]`: the single
// executable against the bundle run by node (what `npm start` runs): file size, cold start from
// spawn to the first 200 of GET /api/health on an existing data directory, idle RSS after 3 s.
// Targets (issue 17): cold start < 300 ms, idle RSS < 100 MB.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BUNDLE_FILE, buildServerBundle } from '@youyou/server';
import { memoryOf, temporaryFolder } from './support.ts';

const { values } = parseArgs({ options: { starts: { type: 'string', default: '5' } } });
const starts = Number(values.starts);
const REPOSITORY = join(import.meta.dirname, '../..');
const EXECUTABLE = join(REPOSITORY, 'dist', `youyou-${process.platform}-${process.arch}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Started {
  ms: number;
  pid: number;
  stop(): Promise<void>;
}

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
  if (response.status !== 200) throw new Error(`health answered ${response.status}`);
  const ms = performance.now() - started;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return {
    ms,
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
  const built = spawnSync(process.execPath, ['--conditions=development', 'deploy/sea/build.ts'], {
    cwd: REPOSITORY,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('building the executable failed');
}
await buildServerBundle();
const folder = await temporaryFolder('executable');
const rows: {
  label: string;
  bytes: number;
  coldMs: number;
  worstMs: number;
  rssMb: number;
  privateMb: number;
}[] = [];
try {
  for (const { label, command, file } of [
    { label: 'single executable', command: [EXECUTABLE], file: EXECUTABLE },
    {
      label: 'bundle run by node (npm start)',
      // The flag npm start passes (package.json).
      command: [process.execPath, '--max-semi-space-size=1', BUNDLE_FILE],
      file: BUNDLE_FILE,
    },
  ]) {
    const home = join(folder.path, `home-${rows.length}`);
    const dataDirectory = join(folder.path, `data-${rows.length}`);
    // The first start creates the data directory (and unpacks the UI); the measured ones reopen it.
    await (await coldStart(command, dataDirectory, home)).stop();
    const times: number[] = [];
    let memory = { residentMb: Number.NaN, privateMb: Number.NaN };
    for (let index = 0; index < starts; index++) {
      const server = await coldStart(command, dataDirectory, home);
      times.push(server.ms);
      if (index === starts - 1) {
        await sleep(3_000);
        memory = await memoryOf(server.pid);
      }
      await server.stop();
    }
    rows.push({
      label,
      bytes: (await stat(file)).size,
      coldMs: median(times),
      worstMs: Math.max(...times),
      rssMb: memory.residentMb,
      privateMb: memory.privateMb,
    });
  }
} finally {
  await folder.remove();
}
const floor = await bareNodeMemory();
const [sea, bundle] = rows;
const lines = [
  `Cold start: spawn to the first 200 of GET /api/health on an existing data directory, median and worst of ${starts}; idle RSS (and its private, anonymous part) from /proc after 3 s.`,
  '',
  '| how it runs | file size | cold start | worst | target < 300 ms | idle RSS | private | target < 100 MB |',
  '| --- | ---: | ---: | ---: | --- | ---: | ---: | --- |',
  ...rows.map(
    (row) =>
      `| ${row.label} | ${(row.bytes / 1e6).toFixed(1)} MB | ${row.coldMs.toFixed(0)} ms | ${row.worstMs.toFixed(0)} ms | ${row.coldMs < 300 ? 'met' : 'missed'} | ${row.rssMb.toFixed(0)} MB | ${row.privateMb.toFixed(0)} MB | ${row.rssMb < 100 ? 'met' : 'missed'} |`,
  ),
  `| baseline: node idling on an empty script | | | | | ${floor.residentMb.toFixed(0)} MB | ${floor.privateMb.toFixed(0)} MB | |`,
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
