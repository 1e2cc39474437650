/**
 * The script protocol's stdout cap (spec §5.6) and the dispatcher's output cap (spec §4.4).
 *
 * @example
 * new BoundedOutput(MAX_SCRIPT_OUTPUT_BYTES);
 */
export const MAX_SCRIPT_OUTPUT_BYTES = 1024 * 1024;

/** What a capped stream held once it ended. */
export interface CollectedOutput {
  /** UTF-8 text; invalid sequences became U+FFFD; a truncation notice ends it when `truncated`. */
  text: string;
  /** Every byte the stream produced, kept or not. */
  totalBytes: number;
  truncated: boolean;
  invalidUtf8: boolean;
}

/**
 * Collects a stream's bytes up to a limit and keeps counting past it, so a chatty script is
 * drained (never blocked on a full pipe) without holding more than `limitBytes` in memory.
 *
 * @example
 * const output = new BoundedOutput(1024);
 * child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
 * child.on('close', () => console.log(output.collect().text));
 */
export class BoundedOutput {
  readonly limitBytes: number;
  private readonly chunks: Buffer[] = [];
  private keptBytes = 0;
  private seenBytes = 0;

  constructor(limitBytes: number) {
    this.limitBytes = limitBytes;
  }

  get totalBytes(): number {
    return this.seenBytes;
  }

  push(chunk: Buffer): void {
    this.seenBytes += chunk.length;
    // Keep one byte past the limit so `collect` can tell "exactly the limit" from "more".
    const room = this.limitBytes + 1 - this.keptBytes;
    if (room <= 0) return;
    const kept = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.chunks.push(kept);
    this.keptBytes += kept.length;
  }

  /** The text, cut at a character boundary with a notice when the stream passed the limit. */
  collect(): CollectedOutput {
    const bytes = Buffer.concat(this.chunks, this.keptBytes);
    if (this.seenBytes <= this.limitBytes) {
      const { text, invalid } = decodeUtf8(bytes);
      return { text, totalBytes: this.seenBytes, truncated: false, invalidUtf8: invalid };
    }
    const notice = `\n[output truncated: the script printed ${String(this.seenBytes)} bytes; the limit is ${String(this.limitBytes)}]`;
    const cut = characterBoundary(bytes, Math.max(0, this.limitBytes - Buffer.byteLength(notice)));
    const { text, invalid } = decodeUtf8(bytes.subarray(0, cut));
    return { text: `${text}${notice}`, totalBytes: this.seenBytes, truncated: true, invalidUtf8: invalid };
  }

  /** The last `bytes` bytes kept, as text: for stderr tails in warnings. */
  tail(bytes: number): string {
    const all = Buffer.concat(this.chunks, this.keptBytes);
    const start = characterBoundary(all, Math.max(0, all.length - bytes));
    return decodeUtf8(all.subarray(start)).text;
  }
}

/** The largest index ≤ `index` that starts a UTF-8 character (never splits a sequence). */
export function characterBoundary(bytes: Uint8Array, index: number): number {
  let position = Math.min(index, bytes.length);
  while (position > 0 && position < bytes.length && ((bytes[position] ?? 0) & 0xc0) === 0x80) position -= 1;
  return position;
}

/** Decodes UTF-8, replacing invalid sequences with U+FFFD and saying whether there were any. */
export function decodeUtf8(bytes: Uint8Array): { text: string; invalid: boolean } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), invalid: false };
  } catch {
    return { text: new TextDecoder('utf-8').decode(bytes), invalid: true };
  }
}
