import { useCallback } from 'react';
import { useResolvedLanguage } from './use-language.ts';
import { translate, type Translate } from './i18n.ts';

/**
 * The `t` function for the language in use.
 *
 * @example
 * const t = useTranslation();
 * t('conversation.thoughtFor', { seconds: 12 });
 */
export function useTranslation(): Translate {
  const language = useResolvedLanguage();
  return useCallback<Translate>((key, parameters) => translate(language, key, parameters), [language]);
}
