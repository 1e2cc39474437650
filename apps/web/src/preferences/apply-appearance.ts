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
 * applyAppearance(document.documentElement, { theme: 'dark', density: 'compact', fontSize: 14, language: 'en', accent: '#0f766e' });
 */
export function applyAppearance(
  root: HTMLElement,
  appearance: {
    theme: 'light' | 'dark';
    density: Density;
    fontSize: number;
    language: string;
    accent?: string | undefined;
  },
): void {
  root.dataset['theme'] = appearance.theme;
  root.dataset['density'] = appearance.density;
  root.style.setProperty('--font-size-base', `${String(appearance.fontSize)}px`);
  root.style.colorScheme = appearance.theme;
  root.lang = appearance.language;
  // A custom accent is data over the theme's tokens (spec §4.15); the soft and hover shades derive from it.
  if (appearance.accent !== undefined && /^#[0-9a-fA-F]{6}$/.test(appearance.accent)) {
    root.style.setProperty('--color-accent', appearance.accent);
    root.style.setProperty('--color-focus', appearance.accent);
  } else {
    root.style.removeProperty('--color-accent');
    root.style.removeProperty('--color-focus');
  }
}
