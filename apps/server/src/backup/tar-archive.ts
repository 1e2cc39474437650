import { open, readFile } from 'node:fs/promises';
import { extract, pack, type Pack } from 'tar-stream';

/** One file in an archive: a relative POSIX path and its bytes. */
export interface ArchiveEntry {
  path: string;
  bytes: Uint8Array;
  mode?: number;
}

function addEntry(archive: Pack, entry: ArchiveEntry): Promise<void> {
  return new Promise((resolve, reject) => {
    archive.entry(
      { name: entry.path, size: entry.bytes.length, mode: entry.mode ?? 0o600, mtime: new Date() },
      entry.bytes,
      (error) => (error ? reject(error) : resolve()),
    );
  });
}

/**
 * Writes a tar archive (what `tar -xf` reads), file by file; tar-stream handles long paths.
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
    const archive = pack();
    // Draining while entries are added keeps memory to one entry; a failed write ends the
    // iteration, which destroys the archive and so fails the entry being added.
    const written = (async () => {
      for await (const chunk of archive) await handle.write(chunk as Uint8Array);
    })();
    const added = (async () => {
      try {
        for await (const entry of entries) await addEntry(archive, entry);
        archive.finalize();
      } catch (error) {
        archive.destroy(error instanceof Error ? error : new Error(String(error)));
        throw error;
      }
    })();
    await Promise.all([written, added]);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Reads the regular files of a tar archive written by writeTar (or by `tar`). Throws on bytes that
 * are not a tar archive.
 *
 * @example
 * for (const entry of await readTar('/backups/youyou.tar')) console.log(entry.path);
 */
export async function readTar(file: string): Promise<ArchiveEntry[]> {
  const extractor = extract();
  extractor.end(await readFile(file));
  const entries: ArchiveEntry[] = [];
  for await (const entry of extractor) {
    const chunks: Uint8Array[] = [];
    for await (const chunk of entry) chunks.push(chunk as Uint8Array);
    const { name, type, mode } = entry.header;
    if (type === 'file') entries.push({ path: name, bytes: Buffer.concat(chunks), mode });
  }
  return entries;
}
