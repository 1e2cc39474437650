import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export const TOKEN_FILE = 'token';

/**
 * The access token: read from `file`, or created there (mode 0600) on first start, so the login
 * URL stays valid across restarts. Delete the file to rotate it.
 *
 * @example
 * const token = await loadAccessToken(join(dataDir, TOKEN_FILE));
 */
export async function loadAccessToken(file: string): Promise<string> {
  try {
    const token = (await readFile(file, 'utf8')).trim();
    if (token.length >= 32) {
      await chmod(file, 0o600);
      return token;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const token = randomBytes(32).toString('base64url');
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${token}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return token;
}

/** Compares in constant time, so the answer's timing tells nothing about the token. */
export function tokensMatch(expected: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
