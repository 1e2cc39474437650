import { describe, expect, it } from 'vitest';
import { formatCount } from '../src/i18n/index.ts';

describe('counts as the UI writes them', () => {
  it('groups digits by three with commas, as Intl does for en and zh-CN', () => {
    const english = new Intl.NumberFormat('en-US');
    const chinese = new Intl.NumberFormat('zh-CN');
    for (const value of [
      0, 7, 42, 999, 1000, 12_345, 100_000, 1_234_567, 9_007_199_254_740_991, -1, -1234, -1_000_000,
    ]) {
      expect(formatCount(value)).toBe(english.format(value));
      expect(formatCount(value)).toBe(chinese.format(value));
    }
  });

  it('still writes a fraction', () => {
    expect(formatCount(1234.5)).toBe('1,234.5');
  });
});
