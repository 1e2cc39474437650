import type { Root } from 'hast';

export interface HighlightRequest {
  id: number;
  code: string;
  language: string;
}

export type HighlightResponse = { id: number; root: Root | undefined } | { id: number; error: string };

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<
  number,
  { resolve: (root: Root | undefined) => void; reject: (error: Error) => void }
>();

function highlightWorker(): Worker {
  if (worker === undefined) {
    worker = new Worker(new URL('./highlight-worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<HighlightResponse>) => {
      const request = pending.get(event.data.id);
      if (request === undefined) return;
      pending.delete(event.data.id);
      if ('error' in event.data) request.reject(new Error(event.data.error));
      else request.resolve(event.data.root);
    };
  }
  return worker;
}

/**
 * A code block's highlighted HAST (undefined for a language shiki does not know, or where there
 * are no web workers: jsdom, whose blocks stay plain). Highlighting runs only in the worker, so a
 * grammar's first compile and every block's tokenising stay off the main thread, and the grammars
 * are built once, into the worker's bundle: a main-thread import of highlight-core would emit
 * every language chunk a second time (decision 0044). Every browser the workbench supports has
 * module workers.
 */
export function highlightToHast(code: string, language: string): Promise<Root | undefined> {
  if (typeof Worker === 'undefined') return Promise.resolve(undefined);
  const id = (nextId += 1);
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    highlightWorker().postMessage({ id, code, language } satisfies HighlightRequest);
  });
}
