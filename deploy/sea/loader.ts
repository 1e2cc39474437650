// The single executable's main script. It compiles the program (entry.ts bundled: youyou.cjs,
// appended to the executable) with a V8 code cache the build made after running the program's
// start (code-cache.ts). Node's own SEA code cache (`useCodeCache`) is made without running
// anything, so it holds only the functions V8 compiles eagerly; every function the start then
// calls was compiled at every start. Without a cache (a cross build), or when V8 rejects it
// (another V8 version, or V8 flags that change the code), the program compiles as it would
// without one (docs/decisions/0025-executable-cold-start.md).
import { constants, Script } from 'node:vm';
import { readSections } from './appended-sections.ts';
import { wrapProgram } from './script-wrapper.ts';

function compileProgram(): Script {
  // Read, not mapped: the bytes are dropped once compiled (V8 keeps the source string it needs).
  const { program, codeCache } = readSections(process.execPath, ['program', 'codeCache']);
  if (program === undefined) throw new Error(`${process.execPath} carries no program`);
  const script = new Script(wrapProgram(program.toString('utf8')), {
    filename: __filename,
    ...(codeCache === undefined ? {} : { cachedData: codeCache }),
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  // YOUYOU_REPORT_CODE_CACHE=1: whether V8 took the cache (deploy/test/executable.test.ts asks; a
  // rejected cache still runs, only slower to start).
  if (process.env['YOUYOU_REPORT_CODE_CACHE'] === '1') {
    const state =
      codeCache === undefined ? 'absent' : script.cachedDataRejected === true ? 'rejected' : 'accepted';
    process.stderr.write(`youyou: code cache ${state}\n`);
  }
  return script;
}

(compileProgram().runInThisContext() as (...parameters: unknown[]) => void)(
  exports,
  require,
  module,
  __filename,
  __dirname,
);
