import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentError } from '../errors/index.ts';
import { INDEX_FILE, SKILL_FILE } from './component-names.ts';

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;
const FORBIDDEN_CHARACTERS = /[<>:"|?*]/;
/** Control characters (U+0000–U+001F) are not portable in file names. */
const hasControlCharacter = (text: string): boolean =>
  [...text].some((character) => character.charCodeAt(0) < 0x20);
const MAX_PATH_LENGTH = 1024;
const MAX_SEGMENT_BYTES = 255;

/**
 * Checks an auxiliary file name inside a component folder (`run.sh`, `lib/util.py`) and returns
 * it normalised. It must be a relative, forward-slash path that stays inside the folder: an
 * absolute path or a `..` segment throws PATH_NOT_ALLOWED; names that are not portable (`a:b`,
 * `CON`, a backslash) or that collide with the entry file throw INVALID_INPUT.
 *
 * @example
 * checkAuxiliaryPath('scripts/run.sh'); // 'scripts/run.sh'
 * checkAuxiliaryPath('../../.bashrc');  // throws AgentError PATH_NOT_ALLOWED
 */
export function checkAuxiliaryPath(path: string): string {
  const invalid = (message: string): never => {
    throw new AgentError('INVALID_INPUT', `auxiliary file ${JSON.stringify(path)}: ${message}`, {
      details: { path },
    });
  };
  const escape = (message: string): never => {
    throw new AgentError('PATH_NOT_ALLOWED', `auxiliary file ${JSON.stringify(path)}: ${message}`, {
      details: { path },
    });
  };
  if (path === '') invalid('the name is empty');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.startsWith('\\')) {
    escape('absolute paths are not allowed; give a path relative to the component folder');
  }
  if (path.includes('\\')) invalid('use "/" to separate folders');
  if (path.length > MAX_PATH_LENGTH) invalid(`the path is longer than ${String(MAX_PATH_LENGTH)} characters`);
  const segments = path.split('/');
  if (segments.includes('..')) escape('".." would leave the component folder');
  for (const segment of segments) {
    if (segment === '' || segment === '.') invalid('empty and "." path segments are not allowed');
    if (FORBIDDEN_CHARACTERS.test(segment) || hasControlCharacter(segment))
      invalid('the characters < > : " | ? * and control characters are not allowed');
    if (WINDOWS_RESERVED.test(segment)) invalid(`${segment} is a reserved device name on Windows`);
    if (segment.endsWith('.') || segment.endsWith(' ')) invalid('a name may not end with "." or a space');
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)
      invalid(`a path segment is longer than ${String(MAX_SEGMENT_BYTES)} bytes`);
  }
  const lower = path.toLowerCase();
  if (lower === INDEX_FILE.toLowerCase() || lower === SKILL_FILE.toLowerCase()) {
    invalid('the entry file is written from the front matter and body, not as an auxiliary file');
  }
  return path;
}

/**
 * Refuses to write through a symbolic link inside a component folder: a link could point the
 * write anywhere on disk. Missing segments are fine (they will be created).
 *
 * @example
 * await assertNoSymbolicLinks('/home/me/.youyou/tools/grep', 'scripts/run.sh');
 */
export async function assertNoSymbolicLinks(directory: string, relativePath: string): Promise<void> {
  let current = directory;
  for (const segment of relativePath.split('/')) {
    current = join(current, segment);
    try {
      const info = await lstat(current);
      if (info.isSymbolicLink()) {
        throw new AgentError(
          'PATH_NOT_ALLOWED',
          `auxiliary file ${JSON.stringify(relativePath)}: ${current} is a symbolic link`,
          {
            details: { path: relativePath },
          },
        );
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
  }
}
