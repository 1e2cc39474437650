import { useSyncExternalStore } from 'react';
import { usePreferences } from '../preferences/index.ts';
import { browserLanguage, type Language } from './i18n.ts';

function subscribeLanguages(listener: () => void): () => void {
  window.addEventListener('languagechange', listener);
  return () => window.removeEventListener('languagechange', listener);
}

function navigatorLanguage(): Language {
  return browserLanguage(navigator.languages.length > 0 ? navigator.languages : [navigator.language]);
}

/** The language in use: the preference, else the browser's (live when the browser's changes). */
export function useResolvedLanguage(): Language {
  const chosen = usePreferences((state) => state.language);
  const fromBrowser = useSyncExternalStore(subscribeLanguages, navigatorLanguage, () => 'en' as Language);
  return chosen ?? fromBrowser;
}
