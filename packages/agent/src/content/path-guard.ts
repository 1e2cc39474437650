import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { AgentError } from '../errors/index.ts';

/**
 * Resolves `target` (relative to `cwd`), following `..` and every symlink, and checks that the
 * real path lies inside one of `roots`. Only then may it be read (spec §8).
 */
export async function resolveAllowedPath(target: string, cwd: string, roots: readonly string[]): Promise<string> {
  const absolute = path.resolve(cwd, target);
  let real: string;
  try {
    real = await realpath(absolute);
  } catch (error) {
    throw new AgentError('INVALID_INPUT', `Cannot read '${target}': it does not exist or is not accessible.`, {
      cause: error,
      details: { path: target },
    });
  }
  const realRoots = await Promise.all(roots.map((root) => realpath(root).catch(() => path.resolve(root))));
  if (!realRoots.some((root) => real === root || real.startsWith(root.endsWith(path.sep) ? root : root + path.sep))) {
    throw new AgentError(
      'PATH_NOT_ALLOWED',
      `'${target}' resolves to ${real}, outside the workspace and the YouYou home; only files there can be attached.`,
      { details: { path: target, resolved: real, allowedRoots: realRoots } },
    );
  }
  return real;
}
