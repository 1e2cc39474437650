/**
 * How text bytes were decoded: the encoding, and whether it was a guess.
 */
export interface DecodedText {
  text: string;
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be' | 'gb18030' | 'windows-1252';
  /** True when the encoding came from a byte-order mark or strict UTF-8; false for a heuristic. */
  certain: boolean;
}

const CJK_CHAR = /[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]/g;

/**
 * Decodes text of unknown encoding: a byte-order mark (UTF-8, UTF-16 LE/BE) wins; then strict
 * UTF-8; then GB18030 (a superset of GBK and GB2312) when it decodes cleanly and reads as
 * Chinese; else Windows-1252, which decodes any byte. Node's `TextDecoder` (full ICU) does the
 * decoding.
 *
 * @example
 * decodeText(new Uint8Array([0xc4, 0xe3, 0xba, 0xc3])); // { text: '你好', encoding: 'gb18030', certain: false }
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return { text: new TextDecoder('utf-8').decode(bytes.subarray(3)), encoding: 'utf-8', certain: true };
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return {
      text: new TextDecoder('utf-16le').decode(bytes.subarray(2)),
      encoding: 'utf-16le',
      certain: true,
    };
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return {
      text: new TextDecoder('utf-16be').decode(bytes.subarray(2)),
      encoding: 'utf-16be',
      certain: true,
    };
  try {
    return {
      text: new TextDecoder('utf-8', { fatal: true }).decode(bytes),
      encoding: 'utf-8',
      certain: true,
    };
  } catch {
    // not UTF-8: try the Chinese national encoding next
  }
  try {
    const text = new TextDecoder('gb18030', { fatal: true }).decode(bytes);
    const high = bytes.reduce((count, byte) => count + (byte >= 0x80 ? 1 : 0), 0);
    const cjk = text.match(CJK_CHAR)?.length ?? 0;
    // Two bytes per CJK character: most high bytes should have become CJK characters.
    if (high > 0 && (cjk * 2) / high >= 0.6) return { text, encoding: 'gb18030', certain: false };
  } catch {
    // not GB18030 either
  }
  return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252', certain: false };
}

/** True when the bytes look binary (NUL bytes outside a UTF-16 BOM'd file). */
export function looksBinary(bytes: Uint8Array): boolean {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return false;
  const sample = bytes.subarray(0, 8192);
  return sample.includes(0);
}
