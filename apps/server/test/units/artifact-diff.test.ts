import { applyPatch, structuredPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { diffTexts } from '../../src/artifacts/artifact-diff.ts';

/** A small deterministic random source, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function fullDiffCounts(before: string, after: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const hunk of structuredPatch('a', 'a', before, after, '', '', { context: 3 }).hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added++;
      else if (line.startsWith('-')) removed++;
    }
  }
  return { added, removed };
}

function diff(before: string, after: string) {
  return diffTexts({ artifactId: 'a', title: 'doc.md', from: 1, to: 2, before, after });
}

describe('artifact diffs look only at the lines that differ', () => {
  it('a one-line edit in a long document gives the hunk jsdiff gives for the whole texts', () => {
    const lines = Array.from({ length: 5_000 }, (_, index) => `Line ${index}: the quick brown fox.`);
    const before = `${lines.join('\n')}\n`;
    const after = before.replace('Line 2500: the quick', 'Line 2500: THE QUICK');
    const full = structuredPatch('doc.md', 'doc.md', before, after, 'v1', 'v2', { context: 3 });
    const result = diff(before, after);
    expect(result).toMatchObject({ added: 1, removed: 1 });
    expect(result.hunks).toEqual(
      full.hunks.map((hunk) => ({
        old_start: hunk.oldStart,
        old_lines: hunk.oldLines,
        new_start: hunk.newStart,
        new_lines: hunk.newLines,
        lines: hunk.lines,
      })),
    );
    expect(applyPatch(before, result.unified)).toBe(after);
  });

  it('edits at the start, at the end, appends, deletions and files without a final newline all patch back', () => {
    const base = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n';
    const cases: [string, string][] = [
      [base, `zero\n${base}`],
      [base, base.replace('one\n', '')],
      [base, `${base}nine\n`],
      [base, base.slice(0, -1)],
      [base.slice(0, -1), `${base}nine`],
      [base, base.replace('eight\n', 'EIGHT\n')],
      [base, base.replace('four\nfive\n', '')],
      ['', base],
      [base, ''],
      ['\n\nx\n', '\n\ny\n'],
      ['a\n\n\nb\n', 'a\n\nb\n'],
      [base, base],
    ];
    for (const [before, after] of cases) {
      const result = diff(before, after);
      expect(applyPatch(before, result.unified), JSON.stringify([before, after])).toBe(after);
      expect({ added: result.added, removed: result.removed }).toEqual(fullDiffCounts(before, after));
    }
  });

  it('random edits of random documents patch back with the counts of a whole-text diff', () => {
    const next = random(7);
    const words = ['alpha', 'beta', 'gamma', '', 'delta', 'alpha'];
    for (let round = 0; round < 300; round++) {
      const lines = Array.from(
        { length: 1 + Math.floor(next() * 40) },
        () => words[Math.floor(next() * words.length)] ?? '',
      );
      const edited = [...lines];
      for (let edit = 0; edit < 1 + Math.floor(next() * 3); edit++) {
        const at = Math.floor(next() * (edited.length + 1));
        const kind = next();
        if (kind < 0.33) edited.splice(at, 0, `new ${round}`);
        else if (kind < 0.66) edited.splice(at, 1);
        else edited[at] = `changed ${round}`;
      }
      const ending = next() < 0.5 ? '\n' : '';
      const before = lines.join('\n') + ending;
      const after = edited.join('\n') + (next() < 0.8 ? ending : '');
      const result = diff(before, after);
      expect(applyPatch(before, result.unified), JSON.stringify([before, after])).toBe(after);
      expect({ added: result.added, removed: result.removed }).toEqual(fullDiffCounts(before, after));
    }
  });
});
