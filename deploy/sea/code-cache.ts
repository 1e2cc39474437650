// `node --max-semi-space-size=1 deploy/sea/code-cache.ts <program.cjs> <cache file>`, run by
// build.ts: the V8 code cache loader.ts compiles the program with. It runs the program's start as
// the executable runs it (`serve` on a data directory already migrated, then a first
// GET /api/health), then writes V8's cache of the script, which now holds every function that
// start compiled. It runs with the executable's V8 flags (its SEA execArgv): V8 rejects a cache
// made under other flags.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { constants, Script } from 'node:vm';
import { wrapProgram } from './script-wrapper.ts';

const [programArgument, cacheArgument] = process.argv.slice(2);
if (programArgument === undefined || cacheArgument === undefined)
  throw new Error('usage: code-cache.ts <program.cjs> <cache file>');
const program = resolve(programArgument);
const cacheFile = resolve(cacheArgument);
const folder = await mkdtemp(join(tmpdir(), 'youyou-code-cache-'));
const dataDirectory = join(folder, 'data');
// Nothing of the user's is read or written: the program's home is a temporary one.
const environment = { ...process.env, YOUYOU_HOME: join(folder, 'home'), HOME: join(folder, 'home') };
// The measured start is on an existing data directory: migrate it first, in another process, so
// that the migrations' code stays out of the cache.
// This Node, started as build.ts started it: under QEMU in a cross build, where the other
// architecture's binary does not run by itself.
const [node = process.execPath, ...prefix] = JSON.parse(
  process.env['YOUYOU_CODE_CACHE_NODE'] ?? JSON.stringify([process.execPath]),
) as string[];
execFileSync(node, [...prefix, ...process.execArgv, program, 'migrate', '--data-dir', dataDirectory], {
  env: environment,
  stdio: ['ignore', 'ignore', 'inherit'],
});
Object.assign(process.env, environment);

let printed = '';
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = ((chunk: string | Uint8Array) => {
  printed += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  return true;
}) as typeof process.stdout.write;
process.argv = [
  process.execPath,
  program,
  'serve',
  '--port',
  '0',
  '--data-dir',
  dataDirectory,
  '--log-level',
  'warn',
];

const script = new Script(wrapProgram(await readFile(program, 'utf8')), {
  filename: program,
  importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
});
const module = { exports: {} };
(script.runInThisContext() as (...parameters: unknown[]) => void)(
  module.exports,
  createRequire(program),
  module,
  program,
  dirname(program),
);

const started = Date.now();
const loginUrl = /(http:\/\/[^\s/]+)\/\?token=(\S+)/;
while (!loginUrl.test(printed)) {
  if (Date.now() - started > 60_000) throw new Error(`the program did not start:\n${printed}`);
  await new Promise((done) => setTimeout(done, 20));
}
const login = loginUrl.exec(printed) ?? [];
const response = await fetch(`${login[1] ?? ''}/api/health`, {
  headers: { authorization: `Bearer ${login[2] ?? ''}` },
});
await response.arrayBuffer();
if (response.status !== 200) throw new Error(`health answered ${response.status}`);
await writeFile(cacheFile, script.createCachedData());
process.stdout.write = write;
await rm(folder, { recursive: true, force: true });
// The server is still running in this process; the cache is written, so end here.
process.exit(0);
