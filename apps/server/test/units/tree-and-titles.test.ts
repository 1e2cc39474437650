import { describe, expect, it } from 'vitest';
import { ConversationTree } from '../../src/conversations/index.ts';
import { titleFromText } from '../../src/runs/index.ts';
import type { TreeRun } from '../../src/storage/index.ts';

describe('the conversation tree', () => {
  const run = (id: string, previous: string | null, user: string, at: number): TreeRun => ({
    id,
    previous_run_id: previous,
    user_message_id: user,
    status: 'completed',
    created_at: at,
  });
  const tree = new ConversationTree([
    run('a', null, 'ua', 1),
    run('b', 'a', 'ub', 2),
    run('c', 'b', 'uc', 3),
    run('b2', 'a', 'ub2', 4),
    run('b3', 'a', 'ub', 5),
    run('d', 'c', 'ud', 6),
  ]);

  it('walks a branch from its leaf, and lists edits and regenerations as siblings', () => {
    expect(tree.path('d').map((entry) => entry.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(tree.userSiblings(tree.run('b') as TreeRun)).toEqual({ ids: ['ub', 'ub2'], index: 0 });
    expect(tree.assistantSiblings(tree.run('b3') as TreeRun)).toEqual({ ids: ['b', 'b3'], index: 1 });
    expect(tree.path(null)).toEqual([]);
  });

  it('a branch switch lands on the newest leaf below', () => {
    expect(tree.latestLeaf(tree.runsOfUserMessage('ub'))?.id).toBe('d');
    expect(tree.latestLeaf([tree.run('b2') as TreeRun])?.id).toBe('b2');
  });
});

describe('automatic titles', () => {
  it('take the first line, fold whitespace, and cut long text at a word', () => {
    expect(titleFromText('\n  Why does   the parser\nfail?')).toBe('Why does the parser');
    expect(titleFromText('')).toBe('');
    const long = titleFromText('word '.repeat(40));
    expect(long.length).toBeLessThanOrEqual(81);
    expect(long.endsWith('…')).toBe(true);
  });
});
