import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Replaces a file whole: written beside it, then renamed over it, so a reader sees the old text or
 * the new one. (Our own few lines: write-file-atomic reads `__filename`, which the single-file ESM
 * bundle of the server does not have.)
 *
 * @example
 * await replaceFile('/home/me/.youyou/config.yaml', 'temperature: 0.3\n');
 */
export async function replaceFile(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, text, { flush: true });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
