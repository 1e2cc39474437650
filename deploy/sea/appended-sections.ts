import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';

/**
 * Data appended after the single executable's end, outside what the process maps: each section is
 * its bytes, a 16-byte marker that names it, and its length (u64 little-endian). They are read
 * backwards from the end of the file; web-pack.ts's UI pack is the last one, in the same format.
 * Bytes read with `read(2)` cost no resident memory once dropped, where a SEA asset stays
 * resident as mapped file pages once read (docs/decisions/0025-executable-cold-start.md).
 */
export const SECTION_MARKERS = {
  program: Buffer.from('YOUYOUPROGRAM\u0000v1', 'latin1'),
  codeCache: Buffer.from('YOUYOUCODECACHv1', 'latin1'),
  web: Buffer.from('YOUYOUWEBPACK\u0000v1', 'latin1'),
} as const;

export type SectionName = keyof typeof SECTION_MARKERS;

const MARKER_BYTES = 16;
const TRAILER_BYTES = MARKER_BYTES + 8;

/**
 * Appends one section to `executable`.
 *
 * @example
 * await appendSection('dist/youyou-linux-x64', 'program', Buffer.from(source, 'latin1'));
 */
export async function appendSection(executable: string, name: SectionName, bytes: Uint8Array): Promise<void> {
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(bytes.byteLength));
  await appendFile(executable, Buffer.concat([bytes, SECTION_MARKERS[name], length]));
}

/**
 * Reads the sections `wanted` from the end of `file` (synchronously: the loader needs them
 * before anything else runs). A section that is not there is left out.
 *
 * @example
 * const { program, codeCache } = readSections(process.execPath, ['program', 'codeCache']);
 */
export function readSections(
  file: string,
  wanted: readonly SectionName[],
): Partial<Record<SectionName, Buffer>> {
  const found: Partial<Record<SectionName, Buffer>> = {};
  const descriptor = openSync(file, 'r');
  try {
    let end = fstatSync(descriptor).size;
    const trailer = Buffer.alloc(TRAILER_BYTES);
    while (end >= TRAILER_BYTES) {
      readSync(descriptor, trailer, 0, TRAILER_BYTES, end - TRAILER_BYTES);
      const marker = trailer.subarray(0, MARKER_BYTES);
      const name = (Object.keys(SECTION_MARKERS) as SectionName[]).find((candidate) =>
        SECTION_MARKERS[candidate].equals(marker),
      );
      const length = Number(trailer.readBigUInt64LE(MARKER_BYTES));
      if (name === undefined || length > end - TRAILER_BYTES) break;
      const start = end - TRAILER_BYTES - length;
      if (wanted.includes(name)) {
        const bytes = Buffer.allocUnsafe(length);
        for (let read = 0; read < length;) {
          const count = readSync(descriptor, bytes, read, length - read, start + read);
          if (count === 0) throw new Error(`${file} ends inside its ${name} section`);
          read += count;
        }
        found[name] = bytes;
      }
      end = start;
    }
  } finally {
    closeSync(descriptor);
  }
  return found;
}
