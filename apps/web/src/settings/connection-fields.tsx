import type { ReactElement } from 'react';
import { useTranslation } from '../i18n/index.ts';

/** A provider URL the server accepts: http(s) and something after it. */
export function isProviderUrl(value: string): boolean {
  return /^https?:\/\/.+/.test(value.trim());
}

/**
 * The base URL and API key of a provider, shared by the add form and the editor. The key field is
 * write-only: a saved key is never shown, only said to be there (`keyPlaceholder`).
 */
export function ConnectionFields(props: {
  baseUrl: string;
  onBaseUrl: (value: string) => void;
  apiKey: string;
  onApiKey: (value: string) => void;
  keyPlaceholder?: string;
  keyDisabled?: boolean;
}): ReactElement {
  const t = useTranslation();
  return (
    <>
      <label className="field">
        <span>{t('providers.baseUrl')}</span>
        <input
          value={props.baseUrl}
          onChange={(event) => props.onBaseUrl(event.target.value)}
          required
          inputMode="url"
        />
      </label>
      <label className="field">
        <span>{t('providers.apiKey')}</span>
        <input
          type="password"
          value={props.apiKey}
          disabled={props.keyDisabled ?? false}
          placeholder={props.keyPlaceholder ?? ''}
          onChange={(event) => props.onApiKey(event.target.value)}
          autoComplete="off"
        />
      </label>
    </>
  );
}
