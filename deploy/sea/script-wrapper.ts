/**
 * The single executable's program (youyou.cjs, a SEA asset) is compiled as a script of this
 * shape, by the main script (loader.ts) and by the build's code-cache run (code-cache.ts): V8
 * accepts a code cache only for the very source it was made from.
 *
 * @example
 * const script = new Script(wrapProgram(source), { filename, cachedData });
 * script.runInThisContext()(exports, require, module, __filename, __dirname);
 */
export function wrapProgram(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
}

/** The program's asset key and its code cache's. */
export const PROGRAM_ASSET = 'youyou.cjs';
export const CODE_CACHE_ASSET = 'youyou.cjs.cache';
