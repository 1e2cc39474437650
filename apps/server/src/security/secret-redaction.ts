/** What a redacted secret is replaced with, everywhere. */
export const REDACTED = '[redacted]';

/**
 * Strings shaped like the API keys of the providers people configure (OpenAI, Anthropic,
 * DeepSeek, Moonshot `sk-…`, Google `AIza…`, GitHub, Hugging Face, xAI, Groq, Replicate,
 * Perplexity, AWS access key ids) and credentials after `Bearer`/`Basic` or an `api_key=`. A
 * server that quotes a key back in its error (OpenAI's "Incorrect API key provided: sk-…") may
 * quote one we were never told about, e.g. a key typed into "test connection" with a typo.
 */
const KEY_SHAPED_PATTERNS: readonly RegExp[] = [
  /\bsk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_*-]{16,}/g,
  /\bAIza[0-9A-Za-z_-]{30,}/g,
  /\b(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}/g,
  /\bhf_[A-Za-z0-9]{30,}/g,
  /\b(?:xai|pplx)-[A-Za-z0-9]{20,}/g,
  /\b(?:gsk|r8)_[A-Za-z0-9]{20,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
];

const CREDENTIAL_AFTER_LABEL =
  /\b(Bearer|Basic|api[_-]?key|x-api-key|access[_-]?token)(["']?(?:\s*[:=]\s*|\s+)["']?)([A-Za-z0-9._~+/=*-]{16,})/gi;

/**
 * `text` with every key-shaped string replaced by `[redacted]`.
 *
 * @example
 * redactKeyShaped('HTTP 401: Incorrect API key provided: sk-proj-abcdefghijklmnop1234');
 * // 'HTTP 401: Incorrect API key provided: [redacted]'
 */
export function redactKeyShaped(text: string): string {
  let result = text;
  for (const pattern of KEY_SHAPED_PATTERNS) result = result.replace(pattern, REDACTED);
  return result.replace(
    CREDENTIAL_AFTER_LABEL,
    (_all, label: string, separator: string) => `${label}${separator}${REDACTED}`,
  );
}

/**
 * Every string inside `value` (object keys kept) passed through `redact`: for error details,
 * which may quote a server's body.
 *
 * @example
 * redactDeep({ body: 'key sk-…' }, redactKeyShaped);
 */
export function redactDeep<T>(value: T, redact: (text: string) => string): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactDeep(item, redact)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, redactDeep(item as unknown, redact)]),
    ) as T;
  }
  return value;
}
