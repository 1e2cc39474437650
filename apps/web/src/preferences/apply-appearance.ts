import type { Density, ThemePreference } from './preferences-store.ts';

/** The theme a preference resolves to, given whether the system asks for dark. */
export function resolveTheme(preference: ThemePreference, systemDark: boolean): 'light' | 'dark' {
  if (preference === 'system') return systemDark ? 'dark' : 'light';
  return preference;
}

/**
 * Puts the appearance on the document root: `data-theme` picks the token set of tokens.css,
 * `data-density` the spacing scale, and `--font-size-base` the type scale. Components only read
 * tokens, so this is all a theme switch does.
 *
 * @example
 * applyAppearance(document.documentElement, { theme: 'dark', density: 'compact', fontSize: 14, language: 'en' });
 */
export function applyAppearance(
  root: HTMLElement,
  appearance: { theme: 'light' | 'dark'; density: Density; fontSize: number; language: string },
): void {
  root.dataset['theme'] = appearance.theme;
  root.dataset['density'] = appearance.density;
  root.style.setProperty('--font-size-base', `${String(appearance.fontSize)}px`);
  root.style.colorScheme = appearance.theme;
  root.lang = appearance.language;
}
