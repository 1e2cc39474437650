import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { AgentError } from '@youyou/agent';

function isInside(candidate: string, root: string): boolean {
  return candidate === root || candidate.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/**
 * Where the workbench's file tools may look: the project's directory (everything below it) and the
 * files uploaded to the conversation (each file alone). Every path is resolved through `..` and
 * every symlink before the check (spec §4.8; the bar: "paths resolved, symlinks included, before
 * any allow-list check"), so a link inside the project that points out of it is refused.
 *
 * @example
 * const scope = new WorkspaceScope('/home/me/project', ['/data/objects/ab/abcd']);
 * await scope.resolve('src/index.ts'); // '/home/me/project/src/index.ts'
 * await scope.resolve('../secret');    // throws AgentError PATH_NOT_ALLOWED
 */
export class WorkspaceScope {
  readonly root: string;
  readonly #files: ReadonlySet<string>;

  /** `root` and `files` must already be real paths. */
  constructor(root: string, files: readonly string[]) {
    this.root = root;
    this.#files = new Set(files);
  }

  static async create(root: string, files: readonly string[]): Promise<WorkspaceScope> {
    const realRoot = await realpath(root);
    const realFiles = await Promise.all(files.map((file) => realpath(file).catch(() => undefined)));
    return new WorkspaceScope(
      realRoot,
      realFiles.filter((file): file is string => file !== undefined),
    );
  }

  /** True when a real path may be read. */
  allows(real: string): boolean {
    return isInside(real, this.root) || this.#files.has(real);
  }

  /** The path relative to the project, for output (uploads keep their absolute path). */
  display(real: string): string {
    if (!isInside(real, this.root)) return real;
    return path.relative(this.root, real).split(path.sep).join('/') || '.';
  }

  /**
   * The real path of `target` (relative to the project directory), or PATH_NOT_ALLOWED. A path that
   * does not exist is refused as not allowed when it would lie outside, so answers never reveal what
   * exists outside the workspace.
   */
  async resolve(target: string): Promise<string> {
    const absolute = path.resolve(this.root, target);
    let real: string;
    try {
      real = await realpath(absolute);
    } catch (error) {
      if (!this.allows(absolute)) throw this.#notAllowed(target);
      throw new AgentError('INVALID_INPUT', `'${target}' does not exist in the project.`, {
        cause: error,
        details: { path: target },
      });
    }
    if (!this.allows(real)) throw this.#notAllowed(target);
    return real;
  }

  #notAllowed(target: string): AgentError {
    return new AgentError(
      'PATH_NOT_ALLOWED',
      `'${target}' is outside the project directory and this conversation's uploads; only files there can be read.`,
      { details: { path: target } },
    );
  }
}
