import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { AgentError } from '../errors/index.ts';

/**
 * Resolves `target` (relative to `cwd`), following `..` and every symlink, and checks that the
 * real path lies inside one of `roots`. Only then may it be read (spec §8).
 */
export async function resolveAllowedPath(
  target: string,
  cwd: string,
  roots: readonly string[],
): Promise<string> {
  const absolute = path.resolve(cwd, target);
  const realRoots = await Promise.all(roots.map((root) => realpath(root).catch(() => path.resolve(root))));
  let real: string;
  try {
    real = await realpath(absolute);
  } catch (error) {
    // A path outside every root is refused whether or not it exists, so the answer never tells
    // which files exist outside the workspace.
    const lexicalRoots = [...realRoots, ...roots.map((root) => path.resolve(root))];
    if (!isInside(absolute, lexicalRoots)) throw notAllowed(target, absolute, realRoots);
    throw new AgentError(
      'INVALID_INPUT',
      `Cannot read '${target}': it does not exist or is not accessible.`,
      {
        cause: error,
        details: { path: target },
      },
    );
  }
  if (!isInside(real, realRoots)) throw notAllowed(target, real, realRoots);
  return real;
}

function isInside(candidate: string, roots: readonly string[]): boolean {
  return roots.some(
    (root) => candidate === root || candidate.startsWith(root.endsWith(path.sep) ? root : root + path.sep),
  );
}

function notAllowed(target: string, resolved: string, allowedRoots: readonly string[]): AgentError {
  return new AgentError(
    'PATH_NOT_ALLOWED',
    `'${target}' resolves to ${resolved}, outside the workspace and the YouYou home; only files there can be attached.`,
    { details: { path: target, resolved, allowedRoots } },
  );
}
