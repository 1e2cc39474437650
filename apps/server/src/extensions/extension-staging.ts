import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExtensionProblem } from '@youyou/contracts';
import { PackageError, removeFolder } from './extension-files.ts';

/** A staged preview is kept this long for the install that follows it. */
const STAGING_TTL_MS = 60 * 60 * 1000;

/**
 * Folders an extension is unpacked into before it is installed (`<root>/<uuid>`): a preview stages
 * one, the install that follows takes it, and one left alone for an hour is removed.
 */
export class ExtensionStaging {
  readonly #root: string;
  readonly #staged = new Map<string, { directory: string; at: number }>();

  constructor(root: string) {
    this.#root = root;
  }

  /** Empties the staging folder (what a stopped server staged is not installed). */
  async reset(): Promise<void> {
    await removeFolder(this.#root);
    await mkdir(this.#root, { recursive: true, mode: 0o700 });
  }

  /**
   * Stages a new folder filled by `fill`. A package error (a bad archive, a path outside it)
   * is returned as problems with nothing kept; any other error is thrown.
   */
  async stage(
    fill: (directory: string) => Promise<void>,
  ): Promise<{ stagingId: string; directory: string } | { stagingId: string; problems: ExtensionProblem[] }> {
    await this.#sweep();
    const stagingId = randomUUID();
    const directory = join(this.#root, stagingId);
    try {
      await fill(directory);
    } catch (error) {
      await removeFolder(directory);
      if (error instanceof PackageError) return { stagingId, problems: error.problems };
      throw error;
    }
    this.#staged.set(stagingId, { directory, at: Date.now() });
    return { stagingId, directory };
  }

  /** Where a staged extension is, or undefined when it was never staged or has expired. */
  directoryOf(stagingId: string): string | undefined {
    return this.#staged.get(stagingId)?.directory;
  }

  /** Forgets a staged folder that was moved into place. */
  forget(stagingId: string): void {
    this.#staged.delete(stagingId);
  }

  async #sweep(): Promise<void> {
    const now = Date.now();
    for (const [id, staged] of this.#staged) {
      if (now - staged.at < STAGING_TTL_MS) continue;
      this.#staged.delete(id);
      await removeFolder(staged.directory);
    }
  }
}
