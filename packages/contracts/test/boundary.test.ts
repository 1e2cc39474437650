import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const sourceRoot = join(packageRoot, 'src');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(folder, entry.name)) : [join(folder, entry.name)],
  );
}

/** Every module specifier in a file's code (not its comments): static and dynamic imports, re-exports. */
function specifiers(source: string): string[] {
  const text = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found: string[] = [];
  for (const match of text.matchAll(/(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]/g))
    found.push(match[1] ?? '');
  for (const match of text.matchAll(/import\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(match[1] ?? '');
  for (const match of text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) found.push(match[1] ?? '');
  for (const match of text.matchAll(/\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(match[1] ?? '');
  return found;
}

describe('@youyou/contracts depends on nothing but zod', () => {
  it('its sources import only zod and files inside src', () => {
    const outside: string[] = [];
    for (const file of sourceFiles(sourceRoot)) {
      for (const specifier of specifiers(readFileSync(file, 'utf8'))) {
        if (specifier === 'zod') continue;
        const insideSource =
          specifier.startsWith('.') &&
          !relative(sourceRoot, resolve(dirname(file), specifier)).startsWith('..');
        if (!insideSource) outside.push(`${relative(packageRoot, file)} → ${specifier}`);
      }
    }
    expect(outside).toEqual([]);
  });

  it('its sources use no Node or browser globals that other runtimes lack', () => {
    const offenders = sourceFiles(sourceRoot).filter((file) =>
      /\b(process|Buffer|__dirname|require)\b\s*[.(]/.test(readFileSync(file, 'utf8')),
    );
    expect(offenders.map((file) => relative(packageRoot, file))).toEqual([]);
  });

  it('its package names zod as its only dependency', () => {
    const manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    expect(Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })).toEqual(['zod']);
  });
});
