import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { SECTION_MARKERS } from './appended-sections.ts';

/**
 * The built web UI as one blob appended to the single executable: a 4-byte big-endian length,
 * a JSON index `[[path, size], …]`, then the files' bytes in that order.
 *
 * @example
 * const { pack, hash } = await packFolder('apps/web/dist');
 */
export async function packFolder(root: string): Promise<{ pack: Buffer; hash: string }> {
  const files: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) files.push(path);
    }
  };
  await walk(root);
  files.sort();
  const bodies = await Promise.all(files.map((file) => readFile(file)));
  const index = Buffer.from(
    JSON.stringify(
      files.map((file, at) => [relative(root, file).split(sep).join('/'), bodies[at]?.length ?? 0]),
    ),
  );
  const length = Buffer.alloc(4);
  length.writeUInt32BE(index.length);
  const pack = Buffer.concat([length, index, ...bodies]);
  return { pack, hash: createHash('sha256').update(pack).digest('hex') };
}

/**
 * Writes a packed folder out once: into `folder` (created through a temp sibling and a rename,
 * so a second process starting at once never serves half of it). Returns `folder`.
 */
export async function unpackFolder(pack: Uint8Array, folder: string): Promise<string> {
  if (existsSync(join(folder, 'index.html'))) return folder;
  const bytes = Buffer.from(pack.buffer, pack.byteOffset, pack.byteLength);
  const indexLength = bytes.readUInt32BE(0);
  const index = JSON.parse(bytes.subarray(4, 4 + indexLength).toString('utf8')) as [string, number][];
  const temporary = `${folder}.${process.pid}.partial`;
  await rm(temporary, { recursive: true, force: true });
  let offset = 4 + indexLength;
  for (const [path, size] of index) {
    if (path.split('/').includes('..')) throw new Error(`a packed path leaves its folder: ${path}`);
    const target = join(temporary, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, bytes.subarray(offset, offset + size));
    offset += size;
  }
  await mkdir(dirname(folder), { recursive: true });
  try {
    await rename(temporary, folder);
  } catch (error) {
    // Another process got there first: its copy is the same bytes.
    await rm(temporary, { recursive: true, force: true });
    if (!existsSync(join(folder, 'index.html'))) throw error;
  }
  return folder;
}

/** What ends an executable that carries a packed UI: the pack, this marker, its length (u64 LE). */
const TRAILER_MARKER = SECTION_MARKERS.web;
const TRAILER_BYTES = TRAILER_MARKER.length + 8;

/**
 * Appends a pack after the end of an executable. It travels outside the single-executable blob,
 * which Node maps at every start: a 16 MB UI inside it measured 16 MB more resident memory for a
 * server that reads the UI once, on its first start (measured on the file postject wrote, whose
 * page cache maps whole large folios: decision 0020). The ELF loader ignores bytes past the
 * sections, so the binary runs unchanged.
 */
export async function appendPack(executable: string, pack: Buffer): Promise<void> {
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(pack.length));
  await appendFile(executable, Buffer.concat([pack, TRAILER_MARKER, length]));
}

/** The pack appended to `executable`, or undefined when it carries none. */
export async function readAppendedPack(executable: string): Promise<Buffer | undefined> {
  const file = await open(executable, 'r');
  try {
    const { size } = await file.stat();
    if (size < TRAILER_BYTES) return undefined;
    const trailer = Buffer.alloc(TRAILER_BYTES);
    await file.read(trailer, 0, TRAILER_BYTES, size - TRAILER_BYTES);
    if (!trailer.subarray(0, TRAILER_MARKER.length).equals(TRAILER_MARKER)) return undefined;
    const length = Number(trailer.readBigUInt64LE(TRAILER_MARKER.length));
    if (length > size - TRAILER_BYTES) return undefined;
    const pack = Buffer.alloc(length);
    await file.read(pack, 0, length, size - TRAILER_BYTES - length);
    return pack;
  } finally {
    await file.close();
  }
}
