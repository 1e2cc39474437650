// `npm run build:executable`: the single executable, dist/youyou-<platform>-<arch>, and its
// SHA-256 file beside it. Node's single-executable applications: a small main script
// (loader.ts) injected into a copy of this Node binary with postject; after the binary's end
// (appended-sections.ts) the CLI and server bundled as one CommonJS file (esbuild), a V8 code
// cache of it made by running its start (code-cache.ts), and the built web UI (web-pack.ts).
// node:sqlite is built in, so there is no native addon to carry.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { BuildOptions, Plugin } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { escapeNonAscii } from '@youyou/server';
import { isWebAppCurrent } from '@youyou/web';
import { appendSection } from './appended-sections.ts';
import { findEmulator, type Emulator, type ExecutableArch } from './emulator.ts';
import { appendPack, packFolder } from './web-pack.ts';

const REPOSITORY = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export type { Emulator, ExecutableArch } from './emulator.ts';

export interface ExecutableBuild {
  executable: string;
  checksumFile: string;
  sha256: string;
  bytes: number;
  /**
   * A cross build's: how this machine runs the executable (QEMU), which made its code caches; or,
   * when there is none, why, and the executable carries no code cache.
   */
  emulator?: Emulator;
}

/**
 * Builds the single executable into `outputFolder` (default dist/ at the repository root), for
 * this machine's architecture or for the other Linux one (`arch`).
 *
 * @example
 * const { executable } = await buildExecutable();
 * await buildExecutable('dist', 'arm64'); // dist/youyou-linux-arm64
 */
export async function buildExecutable(
  outputFolder = join(REPOSITORY, 'dist'),
  arch: ExecutableArch = process.arch === 'arm64' ? 'arm64' : 'x64',
): Promise<ExecutableBuild> {
  const name = `youyou-${process.platform}-${arch}`;
  const cross = arch !== process.arch;
  // One work folder per architecture: the x64 and arm64 tests build at the same time.
  const work = join(REPOSITORY, 'node_modules', '.cache', `sea-${arch}`);
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  await mkdir(outputFolder, { recursive: true });
  // The Node that runs on the target: this one, or the official binary of the other architecture,
  // run under QEMU (emulator.ts) to make the code caches, which are V8's and the CPU's own.
  const targetNode = cross ? await officialNodeBinary(arch, work) : process.execPath;
  const emulator = cross ? findEmulator(arch, targetNode) : undefined;
  const runTarget =
    emulator === undefined ? [process.execPath] : emulator.ok ? [...emulator.prefix, targetNode] : undefined;
  if (emulator?.ok === false) {
    process.stderr.write(
      `${name}: built WITHOUT V8 code caches, so it compiles its JavaScript at every start: ${emulator.reason}\n`,
    );
  }

  const web = join(REPOSITORY, 'apps', 'web', 'dist');
  if (!isWebAppCurrent()) {
    const built = spawnSync(
      process.execPath,
      ['node_modules/vite/bin/vite.js', 'build', 'apps/web', '--logLevel', 'warn'],
      {
        cwd: REPOSITORY,
        stdio: 'inherit',
        env: { ...process.env, NODE_ENV: 'production' },
      },
    );
    if (built.status !== 0) throw new Error('vite build of apps/web failed');
  }
  const { pack, hash: uiHash } = await packFolder(web);

  const manifest = {
    version: (
      JSON.parse(await readFile(join(REPOSITORY, 'apps/cli/package.json'), 'utf8')) as { version: string }
    ).version,
    commit: gitCommit(),
    buildDate: new Date().toISOString(),
    uiHash,
  };
  const { build } = await import('esbuild');
  const assets: Record<string, string> = {};
  for (const [name, contents] of Object.entries(LAZY_PACKAGES)) {
    const file = join(work, assetKeyOf(name));
    const chunk = await build({
      stdin: {
        contents,
        resolveDir: join(REPOSITORY, 'apps/server/src'),
        sourcefile: assetKeyOf(name),
        loader: 'js',
      },
      ...COMMON_OPTIONS,
    });
    const [text] = chunk.outputFiles;
    if (text === undefined) throw new Error(`esbuild wrote no bundle of ${name}`);
    await writeFile(file, escapeNonAscii(text.text));
    assets[assetKeyOf(name)] = file;
  }
  const bundled = await build({
    entryPoints: [join(REPOSITORY, 'deploy/sea/entry.ts')],
    outfile: join(work, 'youyou.cjs'),
    ...COMMON_OPTIONS,
    define: { ...COMMON_OPTIONS.define, __YOUYOU_BUILD__: JSON.stringify(manifest) },
    plugins: [lazyPackages],
  });
  const [script] = bundled.outputFiles;
  if (script === undefined) throw new Error('esbuild wrote no bundle');
  const program = join(work, 'youyou.cjs');
  await writeFile(program, escapeNonAscii(script.text));
  // The main script is loader.ts: it compiles the program, appended after the executable's end
  // with a code cache made after running its start (code-cache.ts), by the target's Node.
  const loaded = await build({
    entryPoints: [join(REPOSITORY, 'deploy/sea/loader.ts')],
    outfile: join(work, 'loader.cjs'),
    ...COMMON_OPTIONS,
  });
  const [loader] = loaded.outputFiles;
  if (loader === undefined) throw new Error('esbuild wrote no loader');
  await writeFile(join(work, 'loader.cjs'), loader.text);
  const cache = join(work, 'youyou.cjs.cache');
  if (runTarget !== undefined) {
    const [command = process.execPath, ...prefix] = runTarget;
    execFileSync(
      command,
      [...prefix, ...SEA_EXEC_ARGV, join(REPOSITORY, 'deploy/sea/code-cache.ts'), program, cache],
      {
        cwd: work,
        stdio: ['ignore', 'inherit', 'inherit'],
        env: { ...process.env, [CODE_CACHE_NODE]: JSON.stringify(runTarget) },
      },
    );
  }

  await writeFile(
    join(work, 'sea-config.json'),
    JSON.stringify({
      main: join(work, 'loader.cjs'),
      output: join(work, 'sea-prep.blob'),
      assets,
      disableExperimentalSEAWarning: true,
      // V8's code cache is made by the target's V8 for its CPU; a cross build with no emulator
      // has none, so it compiles at start instead.
      useCodeCache: runTarget !== undefined,
      execArgv: SEA_EXEC_ARGV,
    }),
  );
  const [blobCommand = process.execPath, ...blobPrefix] = runTarget ?? [process.execPath];
  execFileSync(blobCommand, [...blobPrefix, '--experimental-sea-config', join(work, 'sea-config.json')], {
    stdio: 'inherit',
  });

  // Made in the work folder and copied out at the end (see below).
  const injected = join(work, name);
  await copyFile(targetNode, injected);
  await chmod(injected, 0o755);
  const postject = join(dirname(createRequire(import.meta.url).resolve('postject')), 'cli.js');
  execFileSync(
    process.execPath,
    [
      postject,
      injected,
      'NODE_SEA_BLOB',
      join(work, 'sea-prep.blob'),
      '--sentinel-fuse',
      'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  // After the end, read with read(2) rather than mapped (appended-sections.ts): the program, its
  // code cache, and last the UI pack.
  await appendSection(injected, 'program', await readFile(program));
  if (runTarget !== undefined) await appendSection(injected, 'codeCache', await readFile(cache));
  await appendPack(injected, pack);
  // A copy, not the file postject wrote: postject writes the whole binary at once, and on Linux
  // 6.16+ (ext4's large folios) a file written or read in big sequential chunks sits in the page
  // cache in large folios, which a process then maps whole: the same binary idled 27 MB heavier
  // in file pages. A copy is written as install.sh's `cp` writes it
  // (docs/decisions/0020-executable-startup-and-idle-memory.md).
  const executable = join(outputFolder, name);
  await rm(executable, { force: true });
  await copyFile(injected, executable);
  await rm(injected, { force: true });
  const sha256 = createHash('sha256')
    .update(await readFile(executable))
    .digest('hex');
  const checksumFile = `${executable}.sha256`;
  // The `sha256sum -c` format.
  await writeFile(checksumFile, `${sha256}  ${name}\n`);
  return {
    executable,
    checksumFile,
    sha256,
    bytes: (await stat(executable)).size,
    ...(emulator === undefined ? {} : { emulator }),
  };
}

/**
 * The executable's Node flags. A 1 MB young generation instead of V8's 16 MB: startup's garbage
 * grows a large one that idles half-empty (12 MB of resident memory); streaming throughput
 * measured the same (docs/decisions/0006-packages-and-shipping.md). code-cache.ts runs under the
 * same flags: V8 rejects a code cache made under others.
 */
const SEA_EXEC_ARGV = ['--max-semi-space-size=1'];

/** Tells code-cache.ts how to start the target's Node (a JSON command, QEMU's in a cross build). */
const CODE_CACHE_NODE = 'YOUYOU_CODE_CACHE_NODE';

/** esbuild's options shared by the main script and the lazy packages' chunks. */
const COMMON_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node24',
  conditions: ['@youyou/source', 'module'],
  // pg-native: an optional addon pg never needs here; pino-pretty: loaded only in a terminal,
  // and the executable logs JSON instead (logging/logger.ts); esbuild: only the npm start
  // bundle's build (buildServerBundle) loads it, which the executable never runs.
  external: ['pg-native', 'pino-pretty', 'esbuild'],
  define: {
    // CommonJS has no import.meta; the sources use it to find files beside themselves.
    'import.meta.url': '__youyouImportMetaUrl',
    'import.meta.dirname': '__dirname',
  },
  banner: { js: "const __youyouImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  legalComments: 'none',
  // As the npm start bundle (apps/server/src/bundle/build-bundle.ts says why).
  minifyWhitespace: true,
  minifySyntax: true,
  write: false,
  logLevel: 'warning',
} satisfies BuildOptions;

/**
 * Large packages the server loads only for one kind of document (pdf.js: 1.7 MB of the 6.5 MB
 * script; mammoth and its zip and XML libraries: 0.4 MB). They travel as SEA assets and are
 * compiled the first time a PDF or a Word file is read. Node copies the whole main script into
 * the V8 heap at every start and keeps it there, so every byte left out of it is a byte less of
 * idle memory (docs/decisions/0020-executable-startup-and-idle-memory.md).
 */
const LAZY_PACKAGES: Record<string, string> = {
  // ESM only: its exports, as the namespace the importer's `await import()` reads.
  'unpdf/pdfjs': "export * from 'unpdf/pdfjs';",
  // CommonJS: its exports object, which `import mammoth from 'mammoth'` takes as the default.
  mammoth: "module.exports = require('mammoth');",
};

const assetKeyOf = (name: string): string => `lazy-${name.replaceAll('/', '-')}.cjs`;

/** Resolves each of LAZY_PACKAGES to a module that compiles its asset when first required. */
const lazyPackages: Plugin = {
  name: 'youyou-lazy-packages',
  setup(build) {
    const names = new Set(Object.keys(LAZY_PACKAGES));
    build.onResolve({ filter: /^[@a-z]/ }, (args) =>
      names.has(args.path) ? { path: args.path, namespace: 'youyou-lazy' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'youyou-lazy' }, (args) => ({
      loader: 'js',
      contents: `const { getAsset } = require('node:sea');
const { compileFunction, constants } = require('node:vm');
compileFunction(getAsset(${JSON.stringify(assetKeyOf(args.path))}, 'utf8'), ['exports', 'require', 'module', '__filename', '__dirname'], {
  filename: ${JSON.stringify(assetKeyOf(args.path))},
  importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
})(module.exports, require, module, __filename, __dirname);`,
    }));
  },
};

/**
 * The official Node binary of this very version for `arch`, from the npm registry's
 * `node-linux-<arch>` package (what `npm i node` installs on that machine), kept in
 * node_modules/.cache. The same version matters: a SEA blob is read only by the Node that wrote it.
 */
async function officialNodeBinary(arch: ExecutableArch, work: string): Promise<string> {
  if (process.platform !== 'linux') throw new Error('cross builds are made on Linux, for Linux');
  const version = process.versions.node;
  const folder = join(REPOSITORY, 'node_modules', '.cache', `node-linux-${arch}-${version}`);
  const binary = join(folder, 'package', 'bin', 'node');
  if (existsSync(binary)) return binary;
  await mkdir(folder, { recursive: true });
  const packed = execFileSync(
    'npm',
    ['pack', `node-linux-${arch}@${version}`, '--pack-destination', work, '--silent'],
    { cwd: work, encoding: 'utf8' },
  ).trim();
  execFileSync('tar', ['-xzf', join(work, packed), '-C', folder]);
  return binary;
}

function gitCommit(): string {
  const result = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: REPOSITORY, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : 'unknown';
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const { values, positionals } = parseArgs({
    options: { arch: { type: 'string' } },
    allowPositionals: true,
  });
  if (values.arch !== undefined && values.arch !== 'x64' && values.arch !== 'arm64') {
    throw new Error(`--arch is x64 or arm64, not ${values.arch}`);
  }
  const result = await buildExecutable(positionals[0], values.arch);
  const cached = result.emulator?.ok === false ? ', NO code cache' : '';
  process.stdout.write(
    `${result.executable}: ${(result.bytes / 1_000_000).toFixed(1)} MB${cached}, sha256 ${result.sha256} (${Math.round(performance.now() - started)} ms)\n`,
  );
}
