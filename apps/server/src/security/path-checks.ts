import { realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, sep } from 'node:path';
import { ApiError } from '../errors/index.ts';

function isInside(candidate: string, root: string): boolean {
  return candidate === root || candidate.startsWith(root.endsWith(sep) ? root : root + sep);
}

async function real(path: string): Promise<string> {
  return realpath(path).catch(() => path);
}

/**
 * Checks a project directory a client sent: absolute, existing, a directory, inside one of the
 * allowed roots after every symlink is resolved, and apart from the server's data directory (which
 * holds the token and the secret key). Returns the resolved path.
 *
 * @example
 * const directory = await resolveProjectDirectory('/home/me/code/app', { roots: [homedir()], dataDirectory });
 */
export async function resolveProjectDirectory(
  directory: string,
  options: { roots: readonly string[]; dataDirectory: string },
): Promise<string> {
  const refuse = (reason: string): ApiError =>
    new ApiError(
      'PATH_NOT_ALLOWED',
      `The project directory ${JSON.stringify(directory)} is not allowed: ${reason}.`,
      {
        details: { directory },
      },
    );
  if (directory.includes('\0')) throw refuse('it contains a NUL character');
  if (!isAbsolute(directory)) throw refuse('it must be an absolute path');
  let resolved: string;
  try {
    resolved = await realpath(directory);
  } catch {
    throw new ApiError(
      'INVALID_INPUT',
      `The project directory ${JSON.stringify(directory)} does not exist.`,
      {
        details: { directory },
      },
    );
  }
  const roots = await Promise.all(options.roots.map(real));
  if (!roots.some((root) => isInside(resolved, root))) {
    // The first-run dead end: a folder outside the home directory. Say how to allow it.
    throw refuse(
      `it resolves to ${resolved}, outside the allowed roots (${roots.join(', ')}); ` +
        `restart the server with --workspace-root ${dirname(resolved)} (repeatable) to allow it`,
    );
  }
  const data = await real(options.dataDirectory);
  if (isInside(resolved, data) || isInside(data, resolved)) {
    throw refuse('it overlaps the server’s data directory');
  }
  if (!(await stat(resolved)).isDirectory()) {
    throw new ApiError('INVALID_INPUT', `${JSON.stringify(directory)} is not a directory.`, {
      details: { directory },
    });
  }
  return resolved;
}

/** A path separator, or a control character (code below 32, or 127). */
function isUnsafeName(name: string): boolean {
  for (const character of name) {
    const code = character.codePointAt(0) ?? 0;
    if (character === '/' || character === '\\' || code < 32 || code === 127) return true;
  }
  return false;
}

/**
 * Checks an upload's file name: a plain name, never a path. Names are only ever shown; files are
 * stored by id.
 *
 * @example
 * checkUploadName('report.pdf'); // 'report.pdf'
 * checkUploadName('../../etc/passwd'); // throws PATH_NOT_ALLOWED
 */
export function checkUploadName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > 255) {
    throw new ApiError('INVALID_INPUT', 'A file name is 1–255 characters.', { details: { name } });
  }
  if (isUnsafeName(trimmed) || trimmed === '.' || trimmed === '..') {
    throw new ApiError(
      'PATH_NOT_ALLOWED',
      `An upload's name must be a plain file name, not a path: ${JSON.stringify(name)}.`,
      {
        details: { name },
      },
    );
  }
  return trimmed;
}
