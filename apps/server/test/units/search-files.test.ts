import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchFiles } from '../../src/tools/index.ts';

const FILES: Record<string, string> = {
  'unix.txt': 'first Needle line\nnothing here\nneedle and NEEDLE twice\nlast needle',
  'windows.txt': 'alpha\r\nthe needle\r\n\r\nneedle at the end\r\n',
  'chinese.md': '# 标题\n查找 needle 在这里\n没有\n',
  'none.txt': 'no match in this one\n',
};

describe('search_files finds a literal in the whole text the same as line by line', () => {
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'youyou-search-'));
    for (const [name, text] of Object.entries(FILES)) await writeFile(join(root, name), text);
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const search = (pattern: string, regex: boolean, caseSensitive: boolean) =>
    searchFiles(root, { pattern, regex, caseSensitive, contextLines: 0, maxResults: 100 });

  it.each([
    ['case-insensitive', false],
    ['case-sensitive', true],
  ])(
    '%s: the same lines, numbers and texts as the line-by-line path (CRLF, CJK, several per line)',
    async (_, caseSensitive) => {
      const literal = await search('needle', false, caseSensitive);
      // An escaped pattern with regex: true takes the line-by-line path.
      const byLine = await search('needle', true, caseSensitive);
      expect(literal.matches.length).toBeGreaterThan(0);
      expect(literal.matches).toEqual(byLine.matches);
    },
  );

  it('numbers lines from 1 and strips a carriage return', async () => {
    const { matches } = await search('needle', false, false);
    expect(matches.filter((match) => match.path === 'windows.txt')).toEqual([
      { path: 'windows.txt', line: 2, text: 'the needle', before: [], after: [] },
      { path: 'windows.txt', line: 4, text: 'needle at the end', before: [], after: [] },
    ]);
    expect(matches.filter((match) => match.path === 'unix.txt').map((match) => match.line)).toEqual([
      1, 3, 4,
    ]);
  });
});

describe('the walk search_files uses honours every .gitignore on the way', () => {
  it('a folder’s .gitignore applies to it and below, not to its parent; VCS folders are skipped', async () => {
    const root = await mkdtemp(join(tmpdir(), 'youyou-walk-'));
    try {
      await mkdir(join(root, 'sub', 'deeper'), { recursive: true });
      await mkdir(join(root, '.git'), { recursive: true });
      await writeFile(join(root, '.gitignore'), 'build/\n');
      await mkdir(join(root, 'build'), { recursive: true });
      await writeFile(join(root, 'sub', '.gitignore'), 'secret.txt\n');
      for (const file of [
        'secret.txt',
        'sub/secret.txt',
        'sub/deeper/secret.txt',
        'build/a.txt',
        '.git/b.txt',
        'sub/open.txt',
      ])
        await writeFile(join(root, file), 'needle\n');
      const { matches } = await searchFiles(root, {
        pattern: 'needle',
        regex: false,
        caseSensitive: true,
        contextLines: 0,
        maxResults: 100,
      });
      expect(matches.map((match) => match.path).sort()).toEqual(['secret.txt', 'sub/open.txt']);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
