import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Replaces a file atomically: writes a temporary file beside it, flushes it to disk, then renames
 * it over the target. Readers see the old content or the new one, never a half-written file, and
 * a crash leaves at most a stray `.tmp` file (which loaders ignore).
 *
 * @example
 * await writeFileAtomic('/home/me/.youyou/plugin-state.json', JSON.stringify(state));
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: { mode?: number } = {},
): Promise<void> {
  const directory = dirname(path);
  await mkdir(directory, { recursive: true });
  const temporary = join(directory, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temporary, 'wx', options.mode ?? 0o644);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncDirectory(directory);
}

/** Flushes a directory entry change (a rename) on POSIX; a no-op where directories cannot be opened. */
export async function syncDirectory(directory: string): Promise<void> {
  if (process.platform === 'win32') return;
  try {
    const handle = await open(directory, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some file systems refuse fsync on directories; the rename itself already happened.
  }
}
