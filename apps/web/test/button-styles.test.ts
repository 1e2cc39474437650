import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SOURCES = join(import.meta.dirname, '..', 'src');

function files(directory: string, extension: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith(extension))
    .map((name) => join(directory, name));
}

/** Every class name a stylesheet of the web app styles. */
function styledClasses(): Set<string> {
  const classes = new Set<string>();
  for (const file of files(SOURCES, '.css'))
    for (const match of readFileSync(file, 'utf8').matchAll(/\.([A-Za-z][\w-]*)/g))
      classes.add(match[1] ?? '');
  return classes;
}

/**
 * Each `<button>` in the sources with its class names: a literal `className` (a template's
 * `${…}` parts left out) or `undefined` when the class is computed (checked where it is built).
 */
function buttons(): { where: string; classes: string[] | undefined }[] {
  const found: { where: string; classes: string[] | undefined }[] = [];
  for (const file of files(SOURCES, '.tsx')) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/<button\b([^<]*?)>/gs)) {
      const attributes = match[1] ?? '';
      const literal = /className=(?:"([^"]*)"|\{`([^`]*)`\})/s.exec(attributes);
      const where = `${relative(SOURCES, file)}:${String(text.slice(0, match.index).split('\n').length)}`;
      if (literal === null) {
        found.push({ where, classes: /className=/.test(attributes) ? undefined : [] });
        continue;
      }
      const value = (literal[1] ?? literal[2] ?? '').replaceAll(/\$\{[^}]*\}/g, ' ');
      found.push({ where, classes: value.split(/\s+/).filter((name) => name !== '') });
    }
  }
  return found;
}

describe('the web app buttons', () => {
  it('every button carries a class one of the stylesheets styles, so none shows as a bare browser button', () => {
    const styled = styledClasses();
    const bare = buttons()
      .filter(({ classes }) => classes !== undefined && !classes.some((name) => styled.has(name)))
      .map(({ where }) => where);
    expect(bare).toEqual([]);
  });
});
