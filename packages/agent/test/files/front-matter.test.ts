import { describe, expect, it } from 'vitest';
import { parseFrontMatter } from '../../src/files/front-matter.ts';

describe('parseFrontMatter', () => {
  it('splits front matter from the body and reports field lines', () => {
    const result = parseFrontMatter(
      '---\nversion: 1\nname: grep\nparameters:\n  - name: a\n    type: string\n---\nSearches.\n',
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.data).toMatchObject({ version: 1, name: 'grep' });
    expect(result.value.body.trim()).toBe('Searches.');
    expect(result.value.lineOf(['name'])).toBe(3);
    expect(result.value.lineOf(['parameters', 0, 'type'])).toBe(6);
    expect(result.value.lineOf(['missing'])).toBeUndefined();
  });

  it('accepts a byte order mark, CRLF line ends and "..." as the closing line', () => {
    const result = parseFrontMatter('\uFEFF---\r\nversion: 1\r\n...\r\nBody\r\n');
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.value.body.trim()).toBe('Body');
  });

  it.each([
    ['no front matter', 'just text', /missing front matter/],
    ['an empty file', '', /missing front matter/],
    ['an unclosed block', '---\nversion: 1\n', /not closed/],
    ['an empty block', '---\n---\nbody', /empty/],
    ['a list instead of a mapping', '---\n- a\n- b\n---\n', /not a mapping/],
    ['a scalar instead of a mapping', '---\nhello\n---\n', /not a mapping/],
    ['duplicate keys', '---\nname: a\nname: b\n---\n', /invalid YAML/],
    ['a tab-indented mapping', '---\nexecution:\n\tcommand: x\n---\n', /invalid YAML/],
    ['an unterminated quote', '---\nname: "abc\n---\n', /invalid YAML/],
    ['an undefined alias', '---\nname: *nothing\n---\n', /invalid YAML|could not be read/],
  ])('reports %s as a failure with a reason', (_label, text, reason) => {
    const result = parseFrontMatter(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.failure.reason).toMatch(reason);
  });

  it('names the file line of a YAML error (line 1 is the opening ---)', () => {
    const result = parseFrontMatter('---\nversion: 1\nname: ok\nbad: [unclosed\n---\n');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.failure.line).toBeGreaterThanOrEqual(4);
  });

  it('refuses an alias bomb instead of expanding it', () => {
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let index = 1; index < 9; index += 1) {
      const previous = String.fromCharCode(96 + index);
      const current = String.fromCharCode(97 + index);
      levels.push(`${current}: &${current} [${Array(9).fill(`*${previous}`).join(',')}]`);
    }
    const result = parseFrontMatter(`---\n${levels.join('\n')}\n---\n`);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.failure.reason).toMatch(/could not be read|alias/i);
  });
});
