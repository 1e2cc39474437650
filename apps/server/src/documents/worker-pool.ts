import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ParseContext, ParseLimits, ParseResult, ParserInput, ParserProvider } from '@youyou/contracts';
import { failure } from './document-builder.ts';
import type { ParseRequest } from './parse-worker.ts';
import { BUILTIN_PARSERS } from './parsers/index.ts';

/** The heap one parse may use; a parser past it fails `too_large` and its worker is replaced. */
export const PARSE_WORKER_HEAP_MB = 256;

/** How long an idle worker is kept for the next upload before it ends and gives its memory back. */
const IDLE_MS = 30_000;

/** The bundle's worker, written beside dist/youyou-server.mjs by buildServerBundle. */
export const BUNDLED_WORKER_FILE = 'youyou-parse-worker.mjs';

type WorkerMessage =
  | { type: 'progress'; fraction: number; note?: string }
  | { type: 'result'; result: ParseResult }
  | { type: 'error'; message: string };

/**
 * Where the parse worker's script is for the module that asks: the TypeScript source beside it
 * (the workspace, vitest; loaded with the `@youyou/source` condition so our packages resolve to
 * their sources too), the compiled `.js` beside it (the npm package), or the bundle's own worker
 * file (dist/youyou-server.mjs). Undefined where there is no file to start a worker from (the
 * single executable, whose program is one embedded script): parses then run in-process.
 *
 * @example
 * parseWorkerScript(import.meta.url)?.url; // file:///…/src/documents/parse-worker.ts
 */
export function parseWorkerScript(
  moduleUrl: string | undefined,
): { url: URL; execArgv: string[] } | undefined {
  if (moduleUrl === undefined || !moduleUrl.startsWith('file:')) return undefined;
  const script = moduleUrl.endsWith('.ts')
    ? { url: new URL('./parse-worker.ts', moduleUrl), execArgv: ['--conditions=@youyou/source'] }
    : moduleUrl.endsWith('.mjs')
      ? { url: new URL(`./${BUNDLED_WORKER_FILE}`, moduleUrl), execArgv: [] }
      : { url: new URL('./parse-worker.js', moduleUrl), execArgv: [] };
  return existsSync(fileURLToPath(script.url)) ? script : undefined;
}

interface Slot {
  worker: Worker;
  idleTimer: NodeJS.Timeout | undefined;
}

/**
 * A small pool of worker threads that run the built-in parsers (issue 31): the server's event
 * loop never waits on a parse, each worker's heap is capped (`resourceLimits`), and a parse that
 * is stopped (its time cap, a deleted document) or runs out of memory ends its worker, which
 * takes the parse's memory with it; the next parse starts a fresh one. Sized to the machine, one
 * core left to the server, at most 4: uploads are parsed one at a time per server, two when a
 * policy cross-validates.
 *
 * @example
 * const pool = ParseWorkerPool.create();
 * const registry = new ParserRegistry({ workers: pool });
 */
export class ParseWorkerPool {
  readonly #script: { url: URL; execArgv: string[] };
  readonly #size: number;
  readonly #heapMb: number;
  readonly #idle: Slot[] = [];
  readonly #waiting: ((slot: Slot) => void)[] = [];
  readonly #workers = new Set<Worker>();
  #closed = false;

  constructor(script: { url: URL; execArgv: string[] }, options: { size?: number; heapMb?: number } = {}) {
    this.#script = script;
    this.#size = options.size ?? Math.max(1, Math.min(4, availableParallelism() - 1));
    this.#heapMb = options.heapMb ?? PARSE_WORKER_HEAP_MB;
  }

  /** A pool for this module's build, or undefined where workers cannot start (see parseWorkerScript). */
  static create(options: { size?: number; heapMb?: number } = {}): ParseWorkerPool | undefined {
    const script = parseWorkerScript(import.meta.url);
    return script === undefined ? undefined : new ParseWorkerPool(script, options);
  }

  /** The built-in parsers, each running in this pool. */
  parsers(): ParserProvider[] {
    return BUILTIN_PARSERS.map((parser) => ({
      id: parser.id,
      version: parser.version,
      source: parser.source,
      formats: parser.formats,
      parse: (input, context) => this.parse(parser.id, input, context),
    }));
  }

  /** Runs one built-in parser in a worker. */
  async parse(parserId: string, input: ParserInput, context: ParseContext): Promise<ParseResult> {
    if (this.#closed) throw new Error('The parse workers are closed.');
    const slot = await this.#acquire();
    const ref = {
      id: parserId,
      version: BUILTIN_PARSERS.find((parser) => parser.id === parserId)?.version ?? '',
      source: 'builtin' as const,
    };
    return new Promise<ParseResult>((resolve, reject) => {
      const { worker } = slot;
      const done = (release: boolean): void => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        context.signal.removeEventListener('abort', onAbort);
        if (release) this.#release(slot);
        else this.#discard(worker);
      };
      const onMessage = (message: WorkerMessage): void => {
        if (message.type === 'progress') {
          context.progress(message.fraction, message.note);
          return;
        }
        done(true);
        if (message.type === 'result') resolve(message.result);
        else reject(new Error(message.message));
      };
      const onError = (error: Error & { code?: string }): void => {
        done(false);
        if (error.code === 'ERR_WORKER_OUT_OF_MEMORY')
          resolve(
            failure(
              ref,
              'too_large',
              `Parsing needed more than ${this.#heapMb} MB of memory and was stopped.`,
              {
                limit_mb: this.#heapMb,
              },
            ),
          );
        else reject(error);
      };
      const onExit = (code: number): void => {
        done(false);
        reject(new Error(`The parse worker ended (exit code ${code}).`));
      };
      const onAbort = (): void => {
        done(false);
        reject(new Error('The parse was stopped.'));
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      if (context.signal.aborted) {
        onAbort();
        return;
      }
      context.signal.addEventListener('abort', onAbort, { once: true });
      const request: ParseRequest = { parserId, input, limits: context.limits satisfies ParseLimits };
      worker.postMessage(request);
    });
  }

  /** Ends every worker. */
  async close(): Promise<void> {
    this.#closed = true;
    const idle = this.#idle.splice(0);
    await Promise.all(
      idle.map(async (slot) => {
        clearTimeout(slot.idleTimer);
        this.#workers.delete(slot.worker);
        await slot.worker.terminate();
      }),
    );
  }

  async #acquire(): Promise<Slot> {
    const idle = this.#idle.pop();
    if (idle !== undefined) {
      clearTimeout(idle.idleTimer);
      idle.idleTimer = undefined;
      return idle;
    }
    if (this.#workers.size < this.#size) {
      const worker = new Worker(this.#script.url, {
        execArgv: this.#script.execArgv,
        resourceLimits: { maxOldGenerationSizeMb: this.#heapMb, maxYoungGenerationSizeMb: 16 },
      });
      // An idle worker never keeps the server's process alive.
      worker.unref();
      const slot: Slot = { worker, idleTimer: undefined };
      this.#workers.add(worker);
      // A parse listens for its own worker's errors; one after it (the worker ending idle, or
      // while it is being ended) only retires the worker.
      worker.on('error', () => {});
      worker.once('exit', () => {
        const index = this.#idle.indexOf(slot);
        if (index >= 0) {
          clearTimeout(slot.idleTimer);
          this.#idle.splice(index, 1);
        }
        this.#workers.delete(worker);
      });
      return slot;
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #release(slot: Slot): void {
    const next = this.#waiting.shift();
    if (next !== undefined) {
      next(slot);
      return;
    }
    if (this.#closed) {
      this.#discard(slot.worker);
      return;
    }
    slot.idleTimer = setTimeout(() => {
      const index = this.#idle.indexOf(slot);
      if (index >= 0) this.#idle.splice(index, 1);
      this.#discard(slot.worker);
    }, IDLE_MS);
    slot.idleTimer.unref();
    this.#idle.push(slot);
  }

  /** Ends a worker (stopped, crashed or idle too long); a waiting parse gets a fresh one. */
  #discard(worker: Worker): void {
    this.#workers.delete(worker);
    void worker.terminate();
    const next = this.#waiting.shift();
    if (next !== undefined) void this.#acquire().then(next);
  }
}
