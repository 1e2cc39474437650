import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en, type MessageKey } from '../src/i18n/en.ts';
import { WORKBENCH_TABS } from '../src/layout/index.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const readme = readFileSync(join(root, 'apps/web/README.md'), 'utf8');

/** The text of the "What is in it" row whose first cell is `**name**`. */
function row(name: string): string {
  const line = readme.split('\n').find((text) => text.startsWith(`| **${name}** |`));
  if (line === undefined) throw new Error(`apps/web/README.md has no ${name} row`);
  return line;
}

// Its Settings row is checked against the server's settings schema (apps/server/test/settings-centre.test.ts).
describe('apps/web/README.md agrees with the code and with itself', () => {
  it('has one row per area', () => {
    const names = readme.split('\n').flatMap((text) => /^\| \*\*([^*]+)\*\* \|/.exec(text)?.[1] ?? []);
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names).size).toBe(names.length);
  });

  it('the Workbench row names every built-in tab', () => {
    const workbench = row('Workbench');
    const missing = WORKBENCH_TABS.map((tab) => en[`workbench.${tab}` as MessageKey]).filter(
      (label) => !workbench.includes(label),
    );
    expect(missing).toEqual([]);
  });

  it('the app shell size is the one bench/web/README.md measured last', () => {
    const bench = readFileSync(join(root, 'bench/web/README.md'), 'utf8');
    const measured = [...bench.matchAll(/\*\*([\d.]+) KB gzip\*\*/g)].map((match) => match[1]);
    expect(measured.length).toBeGreaterThan(0);
    expect(readme).toMatch(new RegExp(`app shell initial JS[^\\n]*\\| ${measured.at(-1)} KB`));
  });
});
