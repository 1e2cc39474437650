import type { ModelSettings } from '../models/index.ts';

/**
 * Output limits and thinking support of the Claude families (Anthropic's models overview). The
 * API rejects a `max_tokens` above the model's limit, so older models must be known here.
 *
 * @example
 * knownAnthropicModel('claude-3-5-haiku-20241022'); // { maxOutputTokens: 8192, capabilities: { reasoning: false } }
 */
export function knownAnthropicModel(serverId: string): ModelSettings | undefined {
  if (!serverId.startsWith('claude-')) return undefined;
  if (serverId.startsWith('claude-3-haiku') || serverId.startsWith('claude-3-opus')) {
    return { maxOutputTokens: 4_096, capabilities: { reasoning: false } };
  }
  if (serverId.startsWith('claude-3-5-'))
    return { maxOutputTokens: 8_192, capabilities: { reasoning: false } };
  if (serverId.startsWith('claude-3-7-'))
    return { maxOutputTokens: 64_000, capabilities: { reasoning: true } };
  if (/^claude-opus-4(-[01])?(-\d{8})?$/.test(serverId)) {
    return { maxOutputTokens: 32_000, capabilities: { reasoning: true } };
  }
  return { maxOutputTokens: 64_000, capabilities: { reasoning: true } };
}
