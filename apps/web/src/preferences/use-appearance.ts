import { useSyncExternalStore } from 'react';
import { browserLanguage, type Language } from '../i18n/i18n.ts';
import { usePreferences } from './preferences-store.ts';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function subscribeSystemDark(listener: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const media = window.matchMedia(DARK_QUERY);
  media.addEventListener('change', listener);
  return () => media.removeEventListener('change', listener);
}

function systemDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches;
}

/** Whether the operating system asks for a dark theme, live. */
export function useSystemDark(): boolean {
  return useSyncExternalStore(subscribeSystemDark, systemDark, () => false);
}

function subscribeLanguages(listener: () => void): () => void {
  window.addEventListener('languagechange', listener);
  return () => window.removeEventListener('languagechange', listener);
}

function navigatorLanguage(): Language {
  return browserLanguage(navigator.languages.length > 0 ? navigator.languages : [navigator.language]);
}

/** The language in use: the preference, else the browser's. */
export function useResolvedLanguage(): Language {
  const chosen = usePreferences((state) => state.language);
  const fromBrowser = useSyncExternalStore(subscribeLanguages, navigatorLanguage, () => 'en' as Language);
  return chosen ?? fromBrowser;
}
