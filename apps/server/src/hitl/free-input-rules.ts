import type { FreeInputRoute, HitlCard } from '@youyou/contracts';

/** A decision without the run it may start. */
export type RouteDecision = FreeInputRoute & {
  /** For confirm cards: yes or no, and for how long. */
  confirmed?: boolean;
  scope?: 'once' | 'conversation';
};

const ENGLISH_ORDINALS: Readonly<Record<string, number>> = {
  first: 1,
  one: 1,
  '1st': 1,
  second: 2,
  two: 2,
  '2nd': 2,
  third: 3,
  three: 3,
  '3rd': 3,
  fourth: 4,
  four: 4,
  '4th': 4,
  fifth: 5,
  five: 5,
  '5th': 5,
  sixth: 6,
  six: 6,
  '6th': 6,
  seventh: 7,
  seven: 7,
  '7th': 7,
  eighth: 8,
  eight: 8,
  '8th': 8,
  ninth: 9,
  nine: 9,
  '9th': 9,
  tenth: 10,
  ten: 10,
  '10th': 10,
};

const CHINESE_DIGITS: Readonly<Record<string, number>> = {
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
  十: 10,
};

/** Words around a pick that carry no choice: "let's go with", "the … one", "用…吧". Longest first. */
const ENGLISH_FILLER = [
  "let's go with",
  'lets go with',
  "i'll go with",
  "i'll take",
  'i will take',
  'go with',
  'i choose',
  'i pick',
  "i'd like",
  'i want',
  'i prefer',
  'choose',
  'pick',
  'take',
  'use',
  'select',
  'prefer',
  'option',
  'choice',
  'number',
  'no.',
  'the',
  'one',
  'please',
  'ok',
  'okay',
  'just',
  'then',
  'that',
  'it',
];
const CHINESE_FILLER = [
  '我想要',
  '我选择',
  '那就用',
  '那就选',
  '就用',
  '就选',
  '我要',
  '我选',
  '那就',
  '选择',
  '选项',
  '还是',
  '就是',
  '用',
  '选',
  '要',
  '就',
  '吧',
  '呢',
  '啊',
  '哦',
  '了',
  '的',
  '个',
  '号',
  '好的',
  '好',
  '这个',
  '那个',
  '一下',
  '请',
];
const ENGLISH_FILLER_NORMALIZED = ENGLISH_FILLER.map((word) =>
  word.toLocaleLowerCase().replace(/[.']/g, ' ').replace(/\s+/g, ' ').trim(),
);
const PUNCTUATION = /[\s.,!?;:'"`~()[\]{}<>，。！？；：、“”‘’（）【】《》…—-]+/gu;

const YES_WORDS = new Set([
  'yes',
  'y',
  'yep',
  'yeah',
  'sure',
  'ok',
  'okay',
  'allow',
  'approve',
  'approved',
  'go',
  'go ahead',
  'do it',
  'proceed',
  'confirm',
  'run it',
  '是',
  '是的',
  '好',
  '好的',
  '可以',
  '允许',
  '同意',
  '行',
  '确认',
  '没问题',
  '执行',
  '继续',
]);
const NO_WORDS = new Set([
  'no',
  'n',
  'nope',
  'deny',
  'reject',
  'stop',
  "don't",
  'dont',
  'do not',
  'cancel',
  'refuse',
  '不',
  '不行',
  '不要',
  '拒绝',
  '否',
  '别',
  '不可以',
  '不允许',
  '取消',
  '算了',
  '不用',
]);
const ALWAYS_WORDS = [
  'for this conversation',
  'always',
  'every time',
  'from now on',
  '总是',
  '一直',
  '本会话',
  '这个会话',
  '以后都',
];

function normalized(text: string): string {
  return text.normalize('NFKC').toLocaleLowerCase().replace(PUNCTUATION, ' ').replace(/\s+/g, ' ').trim();
}

/** The text with filler words removed, for comparing with a label, an id or an ordinal. */
function core(text: string): string {
  let value = ` ${normalized(text)} `;
  // Twice: removing one filler word can put two others side by side ("the … one").
  for (let pass = 0; pass < 2; pass++) {
    for (const word of ENGLISH_FILLER_NORMALIZED) value = value.replaceAll(` ${word} `, ' ');
  }
  for (const word of CHINESE_FILLER) value = value.replaceAll(word, ' ');
  return value.replace(/\s+/g, ' ').trim();
}

function chineseNumber(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number(text);
  if (text === '十') return 10;
  if (text.length === 2 && text.startsWith('十')) return 10 + (CHINESE_DIGITS[text[1] as string] ?? 0);
  return text.length === 1 ? CHINESE_DIGITS[text] : undefined;
}

/** 1-based position named by `text` ("2", "#2", "second", "2nd", "第二", "最后"), or undefined. */
export function ordinalOf(text: string, count: number): number | undefined {
  const value = text.replace(/^#/, '').trim();
  if (value === '') return undefined;
  if (/^\d{1,2}$/.test(value)) return Number(value);
  if (value in ENGLISH_ORDINALS) return ENGLISH_ORDINALS[value];
  if (value === 'last' || value === '最后' || value === '最后一' || value === '最后一项') return count;
  const chinese = /^第([\d一二两三四五六七八九十]{1,3})(?:项|种|条)?$/u.exec(value);
  if (chinese !== null) return chineseNumber(chinese[1] as string);
  if (/^[一二两三四五六七八九十]$/u.test(value)) return chineseNumber(value);
  return undefined;
}

function labelTokens(label: string): string[] {
  return normalized(label)
    .split(/\s+|(?<=[\p{Script=Han}])(?=[^\p{Script=Han}])|(?<=[^\p{Script=Han}])(?=[\p{Script=Han}])/u)
    .filter((token) => token.length >= 2);
}

function pickChoice(card: HitlCard, text: string): RouteDecision | undefined {
  const choices = card.choices;
  if (choices.length === 0) return undefined;
  const whole = normalized(text);
  const stripped = core(text);
  for (const candidate of [whole, stripped]) {
    if (candidate === '') continue;
    const byId = choices.find((choice) => normalized(choice.id) === candidate);
    if (byId !== undefined)
      return { path: 'choice', by: 'rule', reason: `matches the option id "${byId.id}"`, choice_id: byId.id };
    const byLabel = choices.find((choice) => normalized(choice.label) === candidate);
    if (byLabel !== undefined) {
      return {
        path: 'choice',
        by: 'rule',
        reason: `matches the option "${byLabel.label}"`,
        choice_id: byLabel.id,
      };
    }
    const position = ordinalOf(candidate, choices.length);
    if (position !== undefined && position >= 1 && position <= choices.length) {
      const choice = choices[position - 1];
      if (choice !== undefined) {
        return { path: 'choice', by: 'rule', reason: `names option ${position}`, choice_id: choice.id };
      }
    }
  }
  // A word only one option's label has ("Word" of "Word 文档"), and nothing else in the text.
  if (stripped !== '') {
    const owners = new Map<string, string[]>();
    for (const choice of choices) {
      for (const token of new Set(labelTokens(choice.label)))
        owners.set(token, [...(owners.get(token) ?? []), choice.id]);
    }
    const owned = owners.get(stripped);
    if (owned?.length === 1) {
      const choice = choices.find((item) => item.id === owned[0]);
      if (choice !== undefined) {
        return {
          path: 'choice',
          by: 'rule',
          reason: `names the option "${choice.label}"`,
          choice_id: choice.id,
        };
      }
    }
  }
  return undefined;
}

function confirmation(text: string): RouteDecision | undefined {
  const whole = normalized(text);
  const always = ALWAYS_WORDS.some((word) => whole.includes(word));
  let rest = whole;
  for (const word of ALWAYS_WORDS) rest = rest.replaceAll(word, ' ');
  rest = core(rest) || rest.trim();
  const stripped = rest.replace(/\s+/g, ' ').trim();
  if (YES_WORDS.has(stripped) || YES_WORDS.has(whole)) {
    return {
      path: 'choice',
      by: 'rule',
      reason: always ? 'says yes, for this conversation' : 'says yes',
      confirmed: true,
      scope: always ? 'conversation' : 'once',
    };
  }
  if (NO_WORDS.has(stripped) || NO_WORDS.has(whole)) {
    return { path: 'choice', by: 'rule', reason: 'says no', confirmed: false };
  }
  return undefined;
}

/**
 * The rules that route free input before any model is asked (spec §4.5, D8): a `/command` starts a
 * new turn; an option's id, label, a word only its label has, or its ordinal ("the second one",
 * "第二个", "用 Word 吧") picks it; on a confirm card, yes/no words answer it. Undefined when no
 * rule decides.
 *
 * @example
 * routeByRules(card, '第二个'); // { path: 'choice', by: 'rule', reason: 'names option 2', choice_id: 'docx' }
 */
export function routeByRules(card: HitlCard, text: string): RouteDecision | undefined {
  const trimmed = text.trim();
  if (/^\/[\p{L}\p{N}_-]/u.test(trimmed)) {
    return {
      path: 'new_request',
      by: 'rule',
      reason: `starts with the command ${trimmed.split(/\s/)[0] ?? ''}`,
    };
  }
  if (card.kind === 'choice') return pickChoice(card, trimmed);
  if (card.kind === 'confirm') return confirmation(trimmed);
  return undefined;
}
