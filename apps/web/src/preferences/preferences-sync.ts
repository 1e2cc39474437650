import type { ApiClient } from '../api/index.ts';
import { layoutOf, useLayout } from '../layout/layout-store.ts';
import { preferencesOf, usePreferences } from './preferences-store.ts';

/**
 * The server half of the preference double write (spec §4.4, §4.15): on start, what the server
 * has is merged in (another browser's choices); after that every change is written back, a
 * moment later and once per burst. Failures are ignored: localStorage already has the value.
 *
 * @example
 * const stop = startPreferencesSync(api);
 */
export function startPreferencesSync(api: ApiClient, delayMs = 400): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ready = false;
  const write = (): void => {
    if (!ready) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      const preferences = {
        ...preferencesOf(usePreferences.getState()),
        layout: layoutOf(useLayout.getState()),
      };
      api.putPreferences(preferences).catch(() => undefined);
    }, delayMs);
  };
  api
    .getPreferences()
    .then((fromServer) => {
      usePreferences.getState().merge(fromServer);
      const layout = fromServer['layout'];
      if (typeof layout === 'object' && layout !== null)
        useLayout.getState().merge(layout as Record<string, unknown>);
    })
    .catch(() => undefined)
    .finally(() => {
      ready = true;
    });
  const stopPreferences = usePreferences.subscribe(write);
  const stopLayout = useLayout.subscribe(write);
  return () => {
    clearTimeout(timer);
    stopPreferences();
    stopLayout();
  };
}
