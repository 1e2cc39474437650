import { open, readFile } from 'node:fs/promises';

/** One file in an archive: a relative POSIX path and its bytes. */
export interface ArchiveEntry {
  path: string;
  bytes: Uint8Array;
  mode?: number;
}

const BLOCK = 512;

function header(path: string, size: number, mode: number): Buffer {
  // ustar: a name over 100 bytes goes into the 155-byte prefix at a slash.
  let name = path;
  let prefix = '';
  if (Buffer.byteLength(name) > 100) {
    const cut = path.lastIndexOf('/', 155);
    prefix = path.slice(0, cut);
    name = path.slice(cut + 1);
    if (cut <= 0 || Buffer.byteLength(name) > 100 || Buffer.byteLength(prefix) > 155)
      throw new Error(`a path too long for a tar archive: ${path}`);
  }
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, 100, 'utf8');
  block.write(`${mode.toString(8).padStart(7, '0')}\0`, 100, 8, 'ascii');
  block.write('0000000\0', 108, 8, 'ascii');
  block.write('0000000\0', 116, 8, 'ascii');
  block.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 12, 'ascii');
  block.write(
    `${Math.floor(Date.now() / 1000)
      .toString(8)
      .padStart(11, '0')}\0`,
    136,
    12,
    'ascii',
  );
  block.write('        ', 148, 8, 'ascii');
  block.write('0', 156, 1, 'ascii');
  block.write('ustar\0', 257, 6, 'ascii');
  block.write('00', 263, 2, 'ascii');
  block.write(prefix, 345, 155, 'utf8');
  let checksum = 0;
  for (const byte of block) checksum += byte;
  block.write(`${checksum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii');
  return block;
}

/**
 * Writes a plain ustar archive (what `tar -xf` reads), file by file.
 *
 * @example
 * await writeTar('/backups/youyou.tar', [{ path: 'youyou.db', bytes }]);
 */
export async function writeTar(
  file: string,
  entries: Iterable<ArchiveEntry> | AsyncIterable<ArchiveEntry>,
): Promise<void> {
  const handle = await open(file, 'wx', 0o600);
  try {
    for await (const entry of entries) {
      await handle.write(header(entry.path, entry.bytes.length, entry.mode ?? 0o600));
      await handle.write(entry.bytes);
      const padding = (BLOCK - (entry.bytes.length % BLOCK)) % BLOCK;
      if (padding > 0) await handle.write(Buffer.alloc(padding));
    }
    await handle.write(Buffer.alloc(BLOCK * 2));
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Reads the regular files of a ustar archive written by writeTar (or by `tar`).
 *
 * @example
 * for (const entry of await readTar('/backups/youyou.tar')) console.log(entry.path);
 */
export async function readTar(file: string): Promise<ArchiveEntry[]> {
  const archive = await readFile(file);
  const entries: ArchiveEntry[] = [];
  let offset = 0;
  while (offset + BLOCK <= archive.length) {
    const block = archive.subarray(offset, offset + BLOCK);
    if (block.every((byte) => byte === 0)) break;
    const text = (start: number, length: number) =>
      block
        .subarray(start, start + length)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const size = Number.parseInt(text(124, 12).trim() || '0', 8);
    const type = text(156, 1);
    const prefix = text(345, 155);
    const path = prefix === '' ? text(0, 100) : `${prefix}/${text(0, 100)}`;
    const mode = Number.parseInt(text(100, 8).trim() || '600', 8);
    const body = archive.subarray(offset + BLOCK, offset + BLOCK + size);
    if (type === '0' || type === '') entries.push({ path, bytes: body, mode });
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
  return entries;
}
