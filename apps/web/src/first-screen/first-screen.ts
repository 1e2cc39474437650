import { useEffect, useSyncExternalStore } from 'react';

// Whether the first screen is on screen yet. Until it is, what that screen does not show — the
// slash palette's commands, macros and snippets, the profiles, the settings event stream, the
// message list's rows above the view — waits: each request started while the first screen renders
// costs the main thread a few milliseconds before anything is painted.
let held = false;
const listeners = new Set<() => void>();

/**
 * The app's start holds the secondary work until `useMarkFirstScreenDrawn` says the first screen
 * is drawn — or `atMostMs` has passed, whatever happened to that screen (it failed to render, the
 * tab is in the background and draws no frames).
 */
export function holdUntilFirstScreen(atMostMs = 2000): void {
  held = true;
  setTimeout(release, atMostMs);
}

function release(): void {
  if (!held) return;
  held = false;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True once the first screen is drawn (and always where nothing held it: tests, other windows). */
export function useFirstScreenDrawn(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => !held,
    () => true,
  );
}

/** Releases the held work after the frame that draws the component's first commit with `ready`. */
export function useMarkFirstScreenDrawn(ready: boolean): void {
  useEffect(() => {
    if (!ready || !held) return undefined;
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(release);
    });
    return () => cancelAnimationFrame(frame);
  }, [ready]);
}
