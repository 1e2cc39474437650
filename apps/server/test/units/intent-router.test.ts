import type { Intent } from '@youyou/contracts';
import { IntentSchema } from '@youyou/contracts';
import { describe, expect, it } from 'vitest';
import { matchIntent } from '../../src/extensions/intent-router.ts';

const weather: Intent = IntentSchema.parse({
  id: 'weather',
  title: 'Weather report',
  keywords: ['weather report', '天气报告'],
  examples: ['how is the weather'],
  slots: [
    { name: 'city', question: { en: 'Which city?', 'zh-CN': '哪个城市？' }, after: ['for', 'in', '城市'] },
    {
      name: 'units',
      question: { en: 'Units?', 'zh-CN': '单位？' },
      type: 'enum',
      enum: ['metric', 'imperial'],
      required: false,
    },
  ],
  workflow: 'report',
});
const intents = [{ source: 'extension:example', intent: weather }];

describe('the intent router', () => {
  it('a keyword picks the intent and the slot is read after its marker word, up to the end of the clause', () => {
    expect(matchIntent(intents, 'Give me a weather report for São Paulo, please')).toEqual({
      intent_id: 'weather',
      source: 'extension:example',
      score: 2,
      slots: { city: 'São Paulo' },
      missing: [],
    });
  });

  it('a required slot it cannot find is listed as missing; an enum slot matches its value anywhere', () => {
    expect(matchIntent(intents, 'weather report in imperial')).toMatchObject({
      slots: { city: 'imperial', units: 'imperial' },
    });
    expect(matchIntent(intents, '天气报告')).toMatchObject({ slots: {}, missing: ['city'] });
    expect(matchIntent(intents, '天气报告 城市：北京')).toMatchObject({ slots: { city: '北京' } });
  });

  it('a marker inside a word does not count, an exact example matches, and text no intent asks for is left alone (T0)', () => {
    expect(matchIntent(intents, 'weather report within reach')).toMatchObject({ missing: ['city'] });
    expect(matchIntent(intents, 'How is the weather')?.score).toBe(3);
    expect(matchIntent(intents, 'the second option')).toBeUndefined();
    expect(matchIntent([], 'weather report for Oslo')).toBeUndefined();
  });
});
