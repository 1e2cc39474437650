import type { Language } from '../preferences/index.ts';
import { en, type MessageKey } from './en.ts';
import { zhCn } from './zh-cn.ts';

export type { Language };
export const LANGUAGES: readonly Language[] = ['en', 'zh-CN'];

const CATALOGS: Record<Language, Record<MessageKey, string>> = { en, 'zh-CN': zhCn };

/**
 * The UI language for a list of browser languages (navigator.languages): Chinese of any region
 * gets 简体中文, everything else English.
 *
 * @example
 * browserLanguage(['zh-TW', 'en']); // 'zh-CN'
 */
export function browserLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const lower = tag.toLowerCase();
    if (lower.startsWith('zh')) return 'zh-CN';
    if (lower.startsWith('en')) return 'en';
  }
  return 'en';
}

/**
 * Formats a message: `{name}` is replaced by `parameters.name`.
 *
 * @example
 * translate('zh-CN', 'conversation.thoughtFor', { seconds: 12 }); // '思考了 12 秒'
 */
export function translate(
  language: Language,
  key: MessageKey,
  parameters?: Readonly<Record<string, string | number>>,
): string {
  const template = CATALOGS[language][key];
  if (parameters === undefined) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = parameters[name];
    return value === undefined ? whole : String(value);
  });
}

export type Translate = (key: MessageKey, parameters?: Readonly<Record<string, string | number>>) => string;
