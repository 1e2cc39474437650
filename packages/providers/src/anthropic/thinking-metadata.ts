/** A thinking block as the API streamed it, kept so the next request can send it back unchanged. */
export type ThinkingBlock =
  { type: 'thinking'; thinking: string; signature: string } | { type: 'redacted_thinking'; data: string };

/** What the Anthropic provider puts in `done.providerMetadata` (and reads back from the history). */
export type AnthropicReplyMetadata = {
  anthropic: {
    /** The server model that produced the blocks; their signatures are only sent back to it. */
    model: string;
    thinking: ThinkingBlock[];
  };
};

function isThinkingBlock(value: unknown): value is ThinkingBlock {
  if (typeof value !== 'object' || value === null) return false;
  const block = value as Record<string, unknown>;
  if (block['type'] === 'thinking') {
    return typeof block['thinking'] === 'string' && typeof block['signature'] === 'string';
  }
  return block['type'] === 'redacted_thinking' && typeof block['data'] === 'string';
}

/**
 * The thinking blocks of an earlier reply, when it came from the same server model: the API
 * needs them back (signatures intact) to continue a tool-using turn with thinking on.
 *
 * @example
 * readReplayableThinking(message.providerMetadata, 'claude-sonnet-4-5');
 * // [{ type: 'thinking', thinking: '…', signature: '…' }]
 */
export function readReplayableThinking(
  metadata: Readonly<Record<string, unknown>> | undefined,
  serverModel: string,
): ThinkingBlock[] {
  const entry = metadata?.['anthropic'];
  if (typeof entry !== 'object' || entry === null) return [];
  const { model, thinking } = entry as Record<string, unknown>;
  if (model !== serverModel || !Array.isArray(thinking)) return [];
  return thinking.filter(isThinkingBlock).map((block) => ({ ...block }));
}
