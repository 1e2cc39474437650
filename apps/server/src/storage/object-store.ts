import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { ApiError } from '../errors/index.ts';

const SAFE_ID = /^[A-Za-z0-9-]{8,64}$/;

/**
 * Files the workbench keeps beside the database (uploads, artifacts): one folder, names made
 * from ids only, never from anything a client sent (spec §4.19: an S3 adapter can replace it).
 *
 * @example
 * const path = await objects.put('uploads', id, bytes);
 * const bytes = await objects.read(path);
 */
export class ObjectStore {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** Stores bytes under `{kind}/{id[0..2]}/{id}` and returns that relative path. */
  async put(kind: 'uploads' | 'artifacts', id: string, bytes: Uint8Array): Promise<string> {
    if (!SAFE_ID.test(id)) throw new ApiError('INVALID_INPUT', 'An object id must be a plain id.');
    const relativePath = [kind, id.slice(0, 2), id].join('/');
    const target = this.resolve(relativePath);
    await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    const temporary = `${target}.${process.pid}.partial`;
    await writeFile(temporary, bytes, { mode: 0o600 });
    await rename(temporary, target);
    return relativePath;
  }

  async read(relativePath: string): Promise<Buffer> {
    return readFile(this.resolve(relativePath));
  }

  async delete(relativePath: string): Promise<void> {
    await rm(this.resolve(relativePath), { force: true });
  }

  /** The absolute path of a stored object; refuses anything that would leave the root. */
  resolve(relativePath: string): string {
    const absolute = resolve(this.root, relativePath);
    const inside = relative(this.root, absolute);
    if (
      inside === '' ||
      inside.startsWith('..') ||
      inside.split(sep).includes('..') ||
      join(this.root, inside) !== absolute
    ) {
      throw new ApiError('PATH_NOT_ALLOWED', 'That object path leaves the object store.', {
        details: { path: relativePath },
      });
    }
    return absolute;
  }
}
