import { Unzip, UnzipInflate, UnzipPassThrough } from 'fflate';
import { ParseFailedError } from './document-builder.ts';

/** Compressed bytes fed to the inflater per step: bounds what one step can expand to (≈16 MB). */
const FEED_BYTES = 16 * 1024;

/**
 * The entries of an OOXML (zip) file, decompressed as a stream that stops at `maxExpandedBytes`:
 * an entry whose declared size passes the cap is refused before it is inflated, and since the
 * sizes a zip declares can lie, the actual bytes out are counted too. Only entries
 * `want` accepts are inflated; the rest are skipped unread. Fails `wrong_type` for bytes that
 * are not a zip, `corrupt` for a broken one, `too_large` past a cap.
 *
 * @example
 * const entries = readZip(bytes, { maxExpandedBytes: 200e6, want: (name) => name.endsWith('.xml') });
 * entries.get('word/document.xml');
 */
export function readZip(
  bytes: Uint8Array,
  options: { maxExpandedBytes: number; maxEntries?: number; want?: (name: string) => boolean },
): Map<string, Uint8Array> {
  if (bytes.length < 4 || bytes[0] !== 0x50 || bytes[1] !== 0x4b) {
    throw new ParseFailedError(
      'wrong_type',
      'The file is not an Office Open XML document (it is not a zip).',
    );
  }
  const maxEntries = options.maxEntries ?? 10_000;
  const entries = new Map<string, Uint8Array>();
  let expanded = 0;
  let count = 0;
  let pending: ParseFailedError | undefined;
  const unzip = new Unzip();
  unzip.register(UnzipInflate);
  unzip.register(UnzipPassThrough);
  unzip.onfile = (file) => {
    count++;
    if (count > maxEntries) {
      pending ??= new ParseFailedError('too_large', `The archive has more than ${maxEntries} entries.`, {
        limit: maxEntries,
      });
      return;
    }
    if (options.want !== undefined && !options.want(file.name)) return;
    // The size the entry declares, checked before a byte is inflated: an honest bomb (most are)
    // fails here at no cost; a lying one is still stopped by the count of actual bytes below.
    if (file.originalSize !== undefined && expanded + file.originalSize > options.maxExpandedBytes) {
      pending ??= new ParseFailedError(
        'too_large',
        `The archive expands to more than ${options.maxExpandedBytes} bytes (a decompression bomb, or simply too big).`,
        { limit: options.maxExpandedBytes, entry: file.name, declared: file.originalSize },
      );
      return;
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    file.ondata = (error, chunk, final) => {
      if (error !== null) {
        pending ??= new ParseFailedError(
          'corrupt',
          `The archive entry ${file.name} is damaged: ${error.message}`,
        );
        return;
      }
      size += chunk.length;
      expanded += chunk.length;
      if (expanded > options.maxExpandedBytes) {
        pending ??= new ParseFailedError(
          'too_large',
          `The archive expands to more than ${options.maxExpandedBytes} bytes (a decompression bomb, or simply too big).`,
          { limit: options.maxExpandedBytes, entry: file.name },
        );
        file.terminate();
        return;
      }
      chunks.push(chunk);
      if (final) entries.set(file.name, concat(chunks, size));
    };
    file.start();
  };
  try {
    for (let offset = 0; offset < bytes.length && pending === undefined; offset += FEED_BYTES) {
      const end = Math.min(bytes.length, offset + FEED_BYTES);
      unzip.push(bytes.subarray(offset, end), end === bytes.length);
    }
  } catch (error) {
    if (pending === undefined) {
      const message = error instanceof Error ? error.message : String(error);
      throw new ParseFailedError('corrupt', `The archive is damaged: ${message}`);
    }
  }
  if (pending !== undefined) throw pending;
  if (entries.size === 0 && count === 0)
    throw new ParseFailedError('corrupt', 'The archive holds no entries.');
  return entries;
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

const utf8 = new TextDecoder('utf-8');

/** An entry as UTF-8 text, or undefined when absent. */
export function entryText(entries: ReadonlyMap<string, Uint8Array>, name: string): string | undefined {
  const bytes = entries.get(name);
  return bytes === undefined ? undefined : utf8.decode(bytes);
}
