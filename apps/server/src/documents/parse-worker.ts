// The body of a parse worker (worker-pool.ts): runs the built-in parsers off the server's main
// thread, one parse at a time, so a large or hostile file never stalls another request or stream.
import { parentPort } from 'node:worker_threads';
import type { ParseLimits, ParserInput } from '@youyou/contracts';
import { BUILTIN_PARSERS } from './parsers/index.ts';

/** What the pool sends: one parse by a built-in parser's id. */
export interface ParseRequest {
  parserId: string;
  input: ParserInput;
  limits: ParseLimits;
}

const port = parentPort;
if (port === null) throw new Error('parse-worker.ts runs only as a worker thread');
port.on('message', (request: ParseRequest) => {
  const parser = BUILTIN_PARSERS.find((candidate) => candidate.id === request.parserId);
  if (parser === undefined) {
    port.postMessage({ type: 'error', message: `No built-in parser '${request.parserId}'.` });
    return;
  }
  // The pool stops a parse by ending the worker, so this signal never aborts.
  const signal = new AbortController().signal;
  parser
    .parse(request.input, {
      limits: request.limits,
      signal,
      progress: (fraction, note) => port.postMessage({ type: 'progress', fraction, note }),
    })
    .then(
      (result) => port.postMessage({ type: 'result', result }),
      (error: unknown) =>
        port.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) }),
    );
});
