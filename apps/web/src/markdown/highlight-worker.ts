/// <reference lib="webworker" />
import type { HighlightRequest, HighlightResponse } from './highlighter.ts';
import { highlightHere } from './highlight-core.ts';

/**
 * The code highlighter's worker: shiki (its grammars compile to JavaScript regular expressions on
 * first use, hundreds of milliseconds for a large grammar) runs here, off the page's main thread,
 * which only turns the returned HAST into React elements.
 */
const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.onmessage = (event: MessageEvent<HighlightRequest>) => {
  const { id, code, language } = event.data;
  highlightHere(code, language).then(
    (root) => scope.postMessage({ id, root } satisfies HighlightResponse),
    (error: unknown) =>
      scope.postMessage({
        id,
        error: error instanceof Error ? error.message : String(error),
      } satisfies HighlightResponse),
  );
};
