import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from '../src/i18n/en.ts';
import { SECTION_LABELS } from '../src/settings/settings-dialog.tsx';

const root = join(import.meta.dirname, '..', '..', '..');
const read = (path: string): string => readFileSync(join(root, path), 'utf8');

/**
 * "Settings → A → B" pointers in a text, as their segments: a capitalised word, or an emphasised
 * name (`*Example: city weather*`) when it has spaces or punctuation.
 */
function pointers(text: string): string[][] {
  return [...text.matchAll(/Settings((?: → (?:\*[^*\n]+\*|[A-Z]\w+))+)/g)].map((match) =>
    (match[1] ?? '')
      .split(' → ')
      .map((segment) => segment.replaceAll('*', '').trim())
      .filter((segment) => segment !== ''),
  );
}

describe('the example extension points to settings that exist', () => {
  const manifest = JSON.parse(read('extensions/example/extension.json')) as { name: { en: string } };
  const sectionLabels = Object.values(SECTION_LABELS).map((key) => en[key]);
  const texts = {
    panel: read('extensions/example/panels/weather-panel.json'),
    readme: read('extensions/example/README.md'),
    guide: read('docs/extensions.md'),
  };

  it.each(Object.entries(texts))('every "Settings → …" in the %s names a real section', (_name, text) => {
    expect(pointers(text).length).toBeGreaterThan(0);
    for (const segments of pointers(text)) expect(sectionLabels).toContain(segments[0]);
  });

  it('the panel and the README send you to Preferences → the extension’s own section', () => {
    // The host registers an extension's settings as a Preferences section labelled with its name.
    for (const text of [texts.panel, texts.readme]) {
      expect(pointers(text)).toContainEqual([en['settings.schema'], manifest.name.en]);
    }
  });
});
