import { useId, type ReactElement } from 'react';
import { useTranslation } from '../i18n/index.ts';

/** A provider URL the server accepts: http(s) and something after it. */
export function isProviderUrl(value: string): boolean {
  return /^https?:\/\/.+/.test(value.trim());
}

/**
 * Headers as a person types them, one `Name: value` a line; lines without a colon are left out.
 *
 * @example
 * parseHeaderLines('X-Team: docs\nHTTP-Referer: https://example.com'); // { 'X-Team': 'docs', 'HTTP-Referer': 'https://example.com' }
 */
export function parseHeaderLines(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim();
    if (name !== '') headers[name] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** The reverse of `parseHeaderLines`. */
export function headerLines(headers: Readonly<Record<string, string>> | undefined): string {
  return Object.entries(headers ?? {})
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
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
  /** Extra headers, one `Name: value` a line. */
  headers: string;
  onHeaders: (value: string) => void;
}): ReactElement {
  const t = useTranslation();
  const headersId = useId();
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
      {/* The hint describes the field rather than naming it: its label is "Headers" alone. */}
      <div className="field">
        <label htmlFor={headersId}>{t('providers.headers')}</label>
        <textarea
          id={headersId}
          value={props.headers}
          rows={2}
          placeholder="X-Title: YouYou"
          spellCheck={false}
          aria-describedby={`${headersId}-hint`}
          onChange={(event) => props.onHeaders(event.target.value)}
        />
        <span className="field-hint" id={`${headersId}-hint`}>
          {t('providers.headersHint')}
        </span>
      </div>
    </>
  );
}
