import { describe, expect, it } from 'vitest';
import type { CommandDescriptor } from '@youyou/contracts';
import { checkAttachment, paletteEntries, parseSkillMessage, slashQuery } from '../src/composer/index.ts';

const command = (name: string, source: CommandDescriptor['source']): CommandDescriptor => ({
  name,
  source,
  action: source === 'builtin' ? 'client' : source === 'skill' ? 'skill' : 'macro',
  description: { en: `${name} ${source}`, 'zh-CN': `${name} ${source}` },
  parameters: [],
});

describe('the / palette', () => {
  it('opens only while the first word is being typed', () => {
    expect(slashQuery('/')).toBe('');
    expect(slashQuery('/com')).toBe('com');
    expect(slashQuery('/commit now')).toBeUndefined();
    expect(slashQuery('hello /x')).toBeUndefined();
  });

  it('lists the registry’s commands in its order, prefix matches before substring matches', () => {
    const commands = [
      command('new', 'builtin'),
      command('export', 'builtin'),
      command('commit', 'skill'),
      command('recommend', 'skill'),
      command('compose-email', 'macro'),
    ];
    expect(paletteEntries('com', commands).map((entry) => `${entry.source}:${entry.name}`)).toEqual([
      'skill:commit',
      'macro:compose-email',
      'skill:recommend',
    ]);
    expect(paletteEntries('', commands).map((entry) => entry.name)).toEqual([
      'new',
      'export',
      'commit',
      'recommend',
      'compose-email',
    ]);
  });

  it('sends a known skill as an invocation with its arguments', () => {
    expect(parseSkillMessage('/commit fix the parser', new Set(['commit']))).toEqual({
      skill: { name: 'commit', arguments: 'fix the parser' },
      text: 'fix the parser',
    });
    expect(parseSkillMessage('/commit', new Set(['commit']))).toEqual({
      skill: { name: 'commit' },
      text: '',
    });
    expect(parseSkillMessage('/unknown x', new Set(['commit']))).toEqual({ text: '/unknown x' });
  });
});

describe('attachment checks', () => {
  it('accepts images, text and documents within their limits', () => {
    expect(checkAttachment({ name: 'a.png', type: 'image/png', size: 1000 })).toBeUndefined();
    expect(checkAttachment({ name: 'notes.md', type: '', size: 1000 })).toBeUndefined();
    expect(checkAttachment({ name: 'r.pdf', type: 'application/pdf', size: 1000 })).toBeUndefined();
  });

  it('refuses other types and files over the limit, saying which limit', () => {
    expect(checkAttachment({ name: 'a.exe', type: 'application/x-msdownload', size: 10 })).toEqual({
      kind: 'bad-type',
    });
    // One limit for every file: the server's (20 MB by default).
    expect(checkAttachment({ name: 'big.png', type: 'image/png', size: 21 * 1024 * 1024 })).toEqual({
      kind: 'too-large',
      limit: '20 MB',
    });
    expect(checkAttachment({ name: 'big.txt', type: 'text/plain', size: 11 * 1024 * 1024 })).toBeUndefined();
    expect(
      checkAttachment({ name: 'big.txt', type: 'text/plain', size: 11 * 1024 * 1024 }, 5 * 1024 * 1024),
    ).toEqual({ kind: 'too-large', limit: '5 MB' });
  });
});
