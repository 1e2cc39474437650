/**
 * The single executable's program (youyou.cjs, appended to the executable) is compiled as a
 * script of this shape, by the main script (loader.ts) and by the build's code-cache run
 * (code-cache.ts): V8 accepts a code cache only for the very source it was made from.
 *
 * @example
 * const script = new Script(wrapProgram(source), { filename, cachedData });
 * script.runInThisContext()(exports, require, module, __filename, __dirname);
 */
export function wrapProgram(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
}
