import type { Root } from 'hast';

/**
 * Shiki, loaded on the first code block; each language grammar is its own chunk, fetched when a
 * block in that language appears. Dual themes as CSS variables, so a theme switch re-highlights
 * nothing.
 */
export async function highlightToHast(code: string, language: string): Promise<Root | undefined> {
  const shiki = await import('shiki');
  const known =
    Object.hasOwn(shiki.bundledLanguages, language) || Object.hasOwn(shiki.bundledLanguagesAlias, language);
  if (!known) return undefined;
  return shiki.codeToHast(code, {
    lang: language,
    themes: { light: 'github-light', dark: 'github-dark' },
    defaultColor: false,
  });
}
