// A script of its own, run before the app's modules are even evaluated: index.html loads it as a
// classic script, first in <head> (vite.config's `earlyRequests` plugin puts it there). It starts
// the requests the first screen waits for — the session check (the project list) and the opened
// conversation's Query — so they travel while the shell's ~900 KB of JavaScript is parsed and run.
// The app's client takes these responses instead of asking again (`takeEarlyResponse`).
// No imports: anything imported would be a chunk to fetch before this could start. A function
// around the whole keeps its names out of the page's globals (a classic script's top level is
// global).
import type { EarlyRequests } from './early-request-paths.ts';

(() => {
  const requests: EarlyRequests = new Map();
  const start = (path: string): void => {
    requests.set(path, {
      response: fetch(path, { headers: { accept: 'application/json' }, credentials: 'same-origin' }),
      at: performance.now(),
    });
  };
  start('/api/projects');
  // `#/c/<id>` opens a conversation (navigation-store's parseHash; early-requests.test.ts keeps the two in step).
  const opened = /^#\/?c\/([^/?#]+)/.exec(window.location.hash)?.[1];
  if (opened !== undefined) start(`/api/conversations/${encodeURIComponent(decodeURIComponent(opened))}`);
  window.youyouEarlyRequests = requests;
})();
