import type { ApiClient } from '../api/index.ts';
import { layoutOf, useLayout } from '../layout/index.ts';
import { preferencesOf, usePreferences } from '../preferences/index.ts';

const CHANGED_AT_KEY = 'youyou.preferences.changedAt';

function localChangedAt(): number {
  const value = Number(localStorage.getItem(CHANGED_AT_KEY) ?? '0');
  return Number.isFinite(value) ? value : 0;
}

/**
 * The server half of the preference double write (spec §4.4, §4.15). Every change is stamped and
 * written back a moment later (once per burst, and at once when the page goes away). On start the
 * newer side wins: the server's copy when another browser changed something since, else this
 * browser's, which is then written to the server. Failures are ignored: localStorage has it.
 *
 * @example
 * const stop = startPreferencesSync(api);
 */
export function startPreferencesSync(api: ApiClient, delayMs = 300): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ready = false;
  let applyingServer = false;
  const snapshot = (): Record<string, unknown> => ({
    ...preferencesOf(usePreferences.getState()),
    layout: layoutOf(useLayout.getState()),
    changed_at: localChangedAt(),
  });
  const flush = (): void => {
    clearTimeout(timer);
    timer = undefined;
    api.putPreferences(snapshot()).catch(() => undefined);
  };
  const changed = (): void => {
    if (applyingServer) return;
    localStorage.setItem(CHANGED_AT_KEY, String(Date.now()));
    if (!ready) return;
    clearTimeout(timer);
    timer = setTimeout(flush, delayMs);
  };
  api
    .getPreferences()
    .then((fromServer) => {
      const serverChangedAt = typeof fromServer['changed_at'] === 'number' ? fromServer['changed_at'] : 0;
      if (serverChangedAt > localChangedAt()) {
        applyingServer = true;
        usePreferences.getState().merge(fromServer);
        const layout = fromServer['layout'];
        if (typeof layout === 'object' && layout !== null)
          useLayout.getState().merge(layout as Record<string, unknown>);
        applyingServer = false;
        localStorage.setItem(CHANGED_AT_KEY, String(serverChangedAt));
      } else if (localChangedAt() > serverChangedAt) {
        flush();
      }
    })
    .catch(() => undefined)
    .finally(() => {
      ready = true;
    });
  const stopPreferences = usePreferences.subscribe(changed);
  const stopLayout = useLayout.subscribe(changed);
  const onHide = (): void => {
    if (timer !== undefined) flush();
  };
  window.addEventListener('pagehide', onHide);
  return () => {
    clearTimeout(timer);
    stopPreferences();
    stopLayout();
    window.removeEventListener('pagehide', onHide);
  };
}
