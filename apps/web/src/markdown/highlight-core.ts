import type { Root } from 'hast';
import type { HighlighterCore } from 'shiki/core';

let highlighter: Promise<HighlighterCore> | undefined;

/**
 * Shiki with its JavaScript regex engine (no WebAssembly, so the page's CSP needs no
 * 'wasm-unsafe-eval'), loaded on the first code block; each language grammar is its own chunk,
 * loaded when a block in that language appears. Dual themes as CSS variables, so a theme switch
 * re-highlights nothing.
 */
function loadHighlighter(): Promise<HighlighterCore> {
  highlighter ??= Promise.all([
    import('shiki/core'),
    import('shiki/engine/javascript'),
    import('shiki/themes/github-light.mjs'),
    import('shiki/themes/github-dark.mjs'),
  ]).then(([core, engine, light, dark]) =>
    core.createHighlighterCore({
      themes: [light.default, dark.default],
      langs: [],
      engine: engine.createJavaScriptRegexEngine(),
    }),
  );
  return highlighter;
}

/** Highlights `code` in this thread; undefined for a language shiki does not know. */
export async function highlightHere(code: string, language: string): Promise<Root | undefined> {
  const { bundledLanguages, bundledLanguagesAlias } = await import('shiki/langs');
  const loader =
    (bundledLanguages as Record<string, (() => Promise<unknown>) | undefined>)[language] ??
    (bundledLanguagesAlias as Record<string, (() => Promise<unknown>) | undefined>)[language];
  if (loader === undefined) return undefined;
  const instance = await loadHighlighter();
  if (!instance.getLoadedLanguages().includes(language)) {
    // The grammar module's default export is the language registration list.
    const grammar = (await loader()) as { default: Parameters<HighlighterCore['loadLanguage']>[0] };
    await instance.loadLanguage(grammar.default);
  }
  return instance.codeToHast(code, {
    lang: language,
    themes: { light: 'github-light', dark: 'github-dark' },
    defaultColor: false,
  });
}
