import { describe, expect, it } from 'vitest';
import { en, type MessageKey } from '../src/i18n/en.ts';
import { zhCn } from '../src/i18n/zh-cn.ts';

/** Strings that read the same in both languages: product names, file names, keys, formats. */
const SAME_IN_BOTH = [
  /^(YouYou|OpenAI[\w -]*|Anthropic|Ollama|MCP|URL|API|JSON|HTTP)$/,
  /^[\w-]+\.(md|yaml|json|txt)$/,
  /^((Ctrl|Shift|Alt|Cmd)\+)*(Enter|Escape|Tab)$/,
  /^[\d\s·.%…/:+-]*$/,
  /^([\s·/:—]*v?\{\w+\}[\s·/:—]*)+$/,
];

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '').sort();
}

describe('the English and Simplified Chinese catalogues', () => {
  const keys = Object.keys(en) as MessageKey[];

  it('every key has a zh-CN string that is not left in English', () => {
    const untranslated = keys.filter((key) => {
      const chinese = zhCn[key];
      return chinese === en[key] && !SAME_IN_BOTH.some((pattern) => pattern.test(en[key]));
    });
    expect(untranslated).toEqual([]);
  });

  it('every zh-CN string has the same placeholders as its English one', () => {
    const mismatched = keys.filter((key) => placeholders(en[key]).join() !== placeholders(zhCn[key]).join());
    expect(mismatched).toEqual([]);
  });

  it('the sign-in hint names the real login URL (port 4280, ?token=)', () => {
    const all: string[] = [...Object.values(en), ...Object.values(zhCn)];
    const hints = all.filter((text) => text.includes('token='));
    expect(hints.length).toBeGreaterThan(0);
    for (const hint of hints) {
      expect(hint).toContain('http://127.0.0.1:4280/?token=');
      expect(hint).not.toContain('/login');
    }
  });
});
