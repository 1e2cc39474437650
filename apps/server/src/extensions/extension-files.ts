import { cp, lstat, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { unzipSync } from 'fflate';
import { extract as tarExtract } from 'tar-stream';
import { MANIFEST_FILE, type ExtensionProblem } from '@youyou/contracts';

/** Bounds of an extension package (folder or archive). */
export const PACKAGE_LIMITS = { maxFiles: 2000, maxBytes: 50 * 1024 * 1024 } as const;

/** A file of an archive, before it is written. */
interface PackedFile {
  path: string;
  bytes: Uint8Array;
}

/** Thrown with every reason a package could not be staged. */
export class PackageError extends Error {
  readonly problems: ExtensionProblem[];

  constructor(problems: ExtensionProblem[]) {
    super(problems.map((problem) => problem.message).join('; '));
    this.problems = problems;
  }
}

/** A path inside the package: relative, no `..`, no absolute or drive paths. */
function safeRelative(path: string): string | undefined {
  const normalized = path.replaceAll('\\', '/').replace(/^\.\//, '');
  if (normalized === '' || normalized.startsWith('/') || /^[A-Za-z]:/.test(normalized)) return undefined;
  if (normalized.split('/').some((part) => part === '..')) return undefined;
  return normalized;
}

async function zipFiles(bytes: Uint8Array): Promise<PackedFile[]> {
  let declared = 0;
  let count = 0;
  // Sizes are checked from the directory before anything is inflated.
  const entries = unzipSync(bytes, {
    filter: (file) => {
      if (file.name.endsWith('/')) return false;
      if (safeRelative(file.name) === undefined)
        throw new PackageError([{ path: file.name, message: 'a path that leaves the extension' }]);
      count += 1;
      declared += file.originalSize;
      if (declared > PACKAGE_LIMITS.maxBytes || count > PACKAGE_LIMITS.maxFiles) {
        throw new PackageError([
          {
            path: 'archive',
            message: `larger than ${PACKAGE_LIMITS.maxBytes} bytes or ${PACKAGE_LIMITS.maxFiles} files`,
          },
        ]);
      }
      return true;
    },
  });
  return Object.entries(entries).map(([name, content]) => ({
    path: safeRelative(name) ?? name,
    bytes: content,
  }));
}

async function tarFiles(bytes: Uint8Array): Promise<PackedFile[]> {
  const files: PackedFile[] = [];
  const extractor = tarExtract();
  let total = 0;
  const done = new Promise<void>((resolvePromise, reject) => {
    extractor.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
      stream.on('error', reject);
      stream.on('end', () => {
        if (header.type === 'file') {
          const path = safeRelative(header.name);
          if (path === undefined) {
            reject(new PackageError([{ path: header.name, message: 'a path that leaves the extension' }]));
            return;
          }
          const content = Buffer.concat(chunks);
          total += content.byteLength;
          if (total > PACKAGE_LIMITS.maxBytes || files.length >= PACKAGE_LIMITS.maxFiles) {
            reject(
              new PackageError([
                {
                  path: 'archive',
                  message: `larger than ${PACKAGE_LIMITS.maxBytes} bytes or ${PACKAGE_LIMITS.maxFiles} files`,
                },
              ]),
            );
            return;
          }
          files.push({ path, bytes: content });
        } else if (header.type === 'symlink' || header.type === 'link') {
          reject(new PackageError([{ path: header.name, message: 'a link in the archive' }]));
          return;
        }
        next();
      });
      stream.resume();
    });
    extractor.on('finish', () => resolvePromise());
    extractor.on('error', reject);
  });
  const gunzip = createGunzip();
  gunzip.on('error', (error) => extractor.destroy(error));
  Readable.from([Buffer.from(bytes)])
    .pipe(gunzip)
    .pipe(extractor);
  await done;
  return files;
}

/**
 * Where the manifest is: at the root of the archive, or inside its one top folder (what
 * `zip -r example.zip example/` and `npm pack` make).
 */
function rootOf(files: readonly PackedFile[]): string {
  if (files.some((file) => file.path === MANIFEST_FILE)) return '';
  const tops = new Set(files.map((file) => file.path.split('/')[0]));
  const [top] = tops;
  if (tops.size === 1 && top !== undefined && files.some((file) => file.path === `${top}/${MANIFEST_FILE}`))
    return `${top}/`;
  throw new PackageError([
    { path: MANIFEST_FILE, message: `no ${MANIFEST_FILE} at the root of the archive or of its one folder` },
  ]);
}

/** Which archive format a file name or its first bytes say. */
export function archiveKind(name: string, bytes: Uint8Array): 'zip' | 'tgz' | undefined {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) return 'zip';
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return 'tgz';
  if (/\.zip$/i.test(name)) return 'zip';
  if (/\.(tgz|tar\.gz)$/i.test(name)) return 'tgz';
  return undefined;
}

/**
 * Unpacks a `.zip` or `.tgz` into `target` (created). Refuses links, paths that leave the
 * folder, and packages over the limits.
 *
 * @example
 * await unpackArchive('example.zip', bytes, '/data/extensions/staging/…');
 */
export async function unpackArchive(name: string, bytes: Uint8Array, target: string): Promise<void> {
  const kind = archiveKind(name, bytes);
  if (kind === undefined)
    throw new PackageError([{ path: 'archive', message: 'not a .zip or .tgz archive' }]);
  let files: PackedFile[];
  try {
    files = kind === 'zip' ? await zipFiles(bytes) : await tarFiles(bytes);
  } catch (error) {
    if (error instanceof PackageError) throw error;
    throw new PackageError([
      { path: 'archive', message: `the archive cannot be read: ${(error as Error).message}` },
    ]);
  }
  const root = rootOf(files);
  await mkdir(target, { recursive: true });
  for (const file of files) {
    if (!file.path.startsWith(root)) continue;
    const destination = resolve(target, file.path.slice(root.length));
    if (!destination.startsWith(resolve(target) + sep)) continue;
    await mkdir(dirname(destination), { recursive: true });
    await writeFile(destination, file.bytes, { mode: 0o600 });
  }
}

/** Checks a source folder (no links, within the limits) before it is copied. */
async function checkFolder(folder: string): Promise<void> {
  let files = 0;
  let bytes = 0;
  const walk = async (directory: string, relative: string): Promise<void> => {
    for (const entry of await readdir(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      const shown = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isSymbolicLink())
        throw new PackageError([{ path: shown, message: 'a symbolic link in the extension folder' }]);
      if (entry.isDirectory()) {
        if (entry.name === 'node_modules' || entry.name === '.git') continue;
        await walk(path, shown);
      } else if (entry.isFile()) {
        files++;
        bytes += (await lstat(path)).size;
        if (files > PACKAGE_LIMITS.maxFiles || bytes > PACKAGE_LIMITS.maxBytes)
          throw new PackageError([
            {
              path: shown,
              message: `the folder is larger than ${PACKAGE_LIMITS.maxBytes} bytes or ${PACKAGE_LIMITS.maxFiles} files`,
            },
          ]);
      }
    }
  };
  await walk(folder, '');
}

/**
 * Copies an extension from a local folder or archive on this machine into `target` (no network:
 * spec §1.3). The original is never touched.
 */
export async function stageFromPath(source: string, target: string): Promise<void> {
  let stat;
  try {
    stat = await lstat(source);
  } catch {
    throw new PackageError([{ path: source, message: 'no such file or folder' }]);
  }
  if (stat.isDirectory()) {
    await checkFolder(source);
    await cp(source, target, {
      recursive: true,
      filter: (path) => !/(^|[\\/])(node_modules|\.git)$/.test(path),
    });
    return;
  }
  if (!stat.isFile()) throw new PackageError([{ path: source, message: 'neither a folder nor an archive' }]);
  if (stat.size > PACKAGE_LIMITS.maxBytes)
    throw new PackageError([{ path: source, message: `larger than ${PACKAGE_LIMITS.maxBytes} bytes` }]);
  await unpackArchive(source, await readFile(source), target);
}

/** Removes a folder and everything in it (no error when it is gone already). */
export async function removeFolder(folder: string): Promise<void> {
  await rm(folder, { recursive: true, force: true });
}
