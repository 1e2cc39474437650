export type { MessageKey } from './en.ts';
export { LANGUAGES, browserLanguage, translate } from './i18n.ts';
export type { Language, Translate } from './i18n.ts';
export { useTranslation } from './use-translation.ts';
export { useResolvedLanguage } from './use-language.ts';
export { formatCount } from './number-format.ts';
