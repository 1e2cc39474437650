import { cardDraftProblems, formValueProblems, type HitlCard } from '@youyou/contracts';
import { describe, expect, it } from 'vitest';
import { routeByRules } from '../../src/hitl/index.ts';
import { summarizeArguments } from '../../src/tools/index.ts';

const card: HitlCard = {
  id: 'c',
  run_id: 'r',
  question: '采用哪种输出格式？',
  kind: 'choice',
  choices: [
    { id: 'md', label: 'Markdown 文档', impact: 'writes an artifact', recommended: true },
    { id: 'docx', label: 'Word 文档', impact: 'writes a .docx' },
    { id: 'pdf', label: 'PDF', impact: 'writes a PDF' },
  ],
  allowFreeInput: true,
  timeoutSec: null,
  created_at: '',
};

describe('free-input rules (spec §4.5: rules first)', () => {
  it.each([
    ['2', 'docx'],
    ['#3', 'pdf'],
    ['the second one', 'docx'],
    ['second', 'docx'],
    ["let's go with the first", 'md'],
    ['option 3', 'pdf'],
    ['the last one', 'pdf'],
    ['Word', 'docx'],
    ['word 文档', 'docx'],
    ['docx', 'docx'],
    ['pdf please', 'pdf'],
    ['第二个', 'docx'],
    ['第2个', 'docx'],
    ['第三种', 'pdf'],
    ['选项1', 'md'],
    ['用 Word 吧', 'docx'],
    ['就用Markdown吧', 'md'],
    ['我选 PDF', 'pdf'],
    ['最后一个', 'pdf'],
  ])('"%s" picks %s', (text, choice) => {
    expect(routeByRules(card, text)).toMatchObject({ path: 'choice', by: 'rule', choice_id: choice });
  });

  it.each([
    '两种文档有什么区别？',
    'What is the difference between Word and Markdown?',
    'can you make it shorter',
    '文档',
    '5',
  ])('"%s" is not decided by the rules', (text) => {
    expect(routeByRules(card, text)).toBeUndefined();
  });

  it('a /command is a new request', () => {
    expect(routeByRules(card, '/summarize the thread')).toMatchObject({ path: 'new_request', by: 'rule' });
    expect(routeByRules(card, '/ not a command')).toBeUndefined();
  });

  it('yes and no words answer a confirm card, in English and Chinese', () => {
    const confirm: HitlCard = { ...card, kind: 'confirm', choices: [] };
    expect(routeByRules(confirm, 'yes')).toMatchObject({ confirmed: true, scope: 'once' });
    expect(routeByRules(confirm, '可以')).toMatchObject({ confirmed: true });
    expect(routeByRules(confirm, 'always allow')).toMatchObject({ confirmed: true, scope: 'conversation' });
    expect(routeByRules(confirm, '不行')).toMatchObject({ confirmed: false });
    expect(routeByRules(confirm, 'no')).toMatchObject({ confirmed: false });
    expect(routeByRules(confirm, 'only if it is backed up')).toBeUndefined();
  });
});

describe('card validation (spec §4.5)', () => {
  it('says everything to fix at once', () => {
    const problems = cardDraftProblems({
      question: 'Pick',
      kind: 'choice',
      choices: [
        { id: 'a', label: 'A', recommended: true },
        { id: 'a', label: 'B', impact: 'b', recommended: true },
      ],
    }).map((problem) => problem.message);
    expect(problems).toEqual(
      expect.arrayContaining([
        'every choice needs an impact: what picking it will do',
        'duplicate choice id "a"',
        'at most one choice may be recommended',
      ]),
    );
    expect(cardDraftProblems({ question: 'Pick', kind: 'choice', choices: [] })[0]?.message).toBe(
      'a choice card needs at least two choices',
    );
    expect(cardDraftProblems({ question: 'Fill', kind: 'form' })[0]?.message).toBe(
      'a form card needs at least one field',
    );
    expect(cardDraftProblems({ question: 'Ok?', kind: 'confirm' })).toEqual([]);
  });

  it('checks form values against their fields', () => {
    const problems = formValueProblems(
      [
        { id: 'tags', type: 'multiselect', label: 'Tags', options: [{ value: 'a', label: 'A' }] },
        { id: 'ok', type: 'checkbox', label: 'OK', required: true },
      ],
      { tags: ['a', 'z'] },
    );
    expect(problems.map((problem) => problem.path)).toEqual(['tags', 'ok']);
  });
});

describe('audit argument summaries', () => {
  it('clips long values and masks secret-looking fields', () => {
    expect(summarizeArguments('{"path":"a.txt","api_key":"sk-123","password":"x"}')).toBe(
      'path="a.txt", api_key=***, password=***',
    );
    expect(summarizeArguments(JSON.stringify({ text: 'x'.repeat(500) })).length).toBeLessThan(200);
  });
});
