// The single executable's main script. It compiles the program (entry.ts bundled: youyou.cjs, a
// SEA asset) with a V8 code cache the build made after running the program's start
// (code-cache.ts). Node's own SEA code cache (`useCodeCache`) is made without running anything,
// so it holds only the functions V8 compiles eagerly; every function the start then calls was
// compiled at every start. Without a cache (a cross build), or when V8 rejects it (another V8
// version, or V8 flags that change the code), the program compiles as it would without one
// (docs/decisions/0025-executable-cold-start.md).
import { getAsset, getRawAsset } from 'node:sea';
import { constants, Script } from 'node:vm';
import { CODE_CACHE_ASSET, PROGRAM_ASSET, wrapProgram } from './script-wrapper.ts';

function codeCache(): Uint8Array | undefined {
  try {
    // A view of the executable's mapped bytes: no copy.
    return new Uint8Array(getRawAsset(CODE_CACHE_ASSET));
  } catch {
    return undefined; // A cross build carries none.
  }
}

const cachedData = codeCache();
const script = new Script(wrapProgram(getAsset(PROGRAM_ASSET, 'utf8')), {
  filename: __filename,
  ...(cachedData === undefined ? {} : { cachedData }),
  importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
});
// YOUYOU_REPORT_CODE_CACHE=1: whether V8 took the cache (deploy/test/executable.test.ts asks; a
// rejected cache still runs, only slower to start).
if (process.env['YOUYOU_REPORT_CODE_CACHE'] === '1') {
  const state =
    cachedData === undefined ? 'absent' : script.cachedDataRejected === true ? 'rejected' : 'accepted';
  process.stderr.write(`youyou: code cache ${state}\n`);
}
(script.runInThisContext() as (...parameters: unknown[]) => void)(
  exports,
  require,
  module,
  __filename,
  __dirname,
);
