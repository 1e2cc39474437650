/** The most a single tool result may hand the model (spec §4.4). */
export const MAX_TOOL_OUTPUT_BYTES = 1024 * 1024;

/**
 * Cuts `content` to at most `limitBytes` of UTF-8, on a character boundary, ending with a notice
 * that says how much was dropped.
 */
export function truncateOutput(content: string, limitBytes: number = MAX_TOOL_OUTPUT_BYTES): string {
  // A UTF-16 code unit never needs more than 3 UTF-8 bytes, so short strings skip the byte count.
  if (content.length * 3 <= limitBytes) return content;
  const bytes = Buffer.from(content, 'utf8');
  if (bytes.length <= limitBytes) return content;
  const notice = `\n\n[Output truncated: ${bytes.length} bytes exceeded the ${limitBytes}-byte limit; the rest was dropped.]`;
  let end = limitBytes - Buffer.byteLength(notice);
  // Step back over continuation bytes (10xxxxxx) so no character is split.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8') + notice;
}
