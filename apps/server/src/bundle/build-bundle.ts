import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';
import { BUNDLED_WORKER_FILE } from '../documents/worker-pool.ts';

const packageFolder = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Where `npm run build -w @youyou/server` writes the server.
 *
 * @example
 * spawn(process.execPath, [BUNDLE_FILE, 'serve']);
 */
export const BUNDLE_FILE = join(packageFolder, 'dist', 'youyou-server.mjs');

/**
 * Bundles the server (src/main.ts and every dependency it imports) into one ESM file with
 * esbuild. Run from the sources, Node strips types file by file and keeps a thousand modules
 * apart; the bundle starts in a third of the time and idles in about two thirds of the memory
 * (bench/server/startup.ts has the numbers).
 *
 * @example
 * await buildServerBundle(); // then: node apps/server/dist/youyou-server.mjs serve
 */
export async function buildServerBundle(
  outfile: string = BUNDLE_FILE,
): Promise<{ outfile: string; bytes: number }> {
  // A build tool, loaded only to build.
  const { build } = await import('esbuild');
  const options = {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    // Our packages from their sources (their exports' `@youyou/source` condition); `module` is
    // esbuild's default, kept.
    conditions: ['@youyou/source', 'module'],
    // pg-native is an optional native addon pg never needs here; pino-pretty loads only in a terminal.
    external: ['pg-native', 'pino-pretty'],
    // CommonJS dependencies (pg, pino) call require: give the ESM bundle one.
    banner: {
      js: "import { createRequire as __youyouCreateRequire } from 'node:module'; const require = __youyouCreateRequire(import.meta.url);",
    },
    legalComments: 'none',
    // Whitespace and syntax only; names stay, so stack traces still name every function. A
    // 9 MB source of 250,000 lines idled 5 MB heavier: the text itself, and the line table V8
    // builds the first time anything asks for a stack (pino does, at every start).
    minifyWhitespace: true,
    minifySyntax: true,
    write: false,
    logLevel: 'warning',
  } satisfies BuildOptions;
  const result = await build({ ...options, entryPoints: [join(packageFolder, 'src', 'main.ts')], outfile });
  // The parse worker (documents/worker-pool.ts), beside the server that starts it.
  const worker = await build({
    ...options,
    entryPoints: [join(packageFolder, 'src', 'documents', 'parse-worker.ts')],
    outfile: join(dirname(outfile), BUNDLED_WORKER_FILE),
  });
  const [output] = result.outputFiles;
  const [workerOutput] = worker.outputFiles;
  if (output === undefined || workerOutput === undefined) throw new Error('esbuild wrote no bundle');
  const text = escapeNonAscii(output.text);
  await mkdir(dirname(outfile), { recursive: true });
  await writeFile(outfile, text);
  await writeFile(join(dirname(outfile), BUNDLED_WORKER_FILE), escapeNonAscii(workerOutput.text));
  return { outfile, bytes: Buffer.byteLength(text) };
}

/**
 * The bundle with every non-ASCII UTF-16 unit written as a `\uXXXX` escape. esbuild escapes
 * strings but keeps regular-expression literals (our CJK free-input patterns) and some comments as
 * they are, and one such character makes V8 hold the whole 5 MB source as a two-byte string: twice
 * the idle memory. An escape means the same in a string, a template, an identifier, a comment and a
 * regular expression (with or without the `u` flag, where an escaped surrogate pair is one code
 * point), so the bundle's behaviour is unchanged.
 */
export function escapeNonAscii(source: string): string {
  return source.replace(/[^\p{ASCII}]/gu, (character) => {
    let escaped = '';
    for (let index = 0; index < character.length; index += 1) {
      escaped += `\\u${character.charCodeAt(index).toString(16).padStart(4, '0')}`;
    }
    return escaped;
  });
}
