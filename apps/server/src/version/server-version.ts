import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_MANIFEST } from './build-manifest.ts';

/** This package's folder: found by walking up, so the sources and a bundle in dist/ both find it. */
function findPackageFolder(start: string): string | undefined {
  let folder = start;
  for (;;) {
    const file = join(folder, 'package.json');
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string };
      if (manifest.name === '@youyou/server') return folder;
    }
    const parent = dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}

/** This package's folder, or undefined in a bundle that carries no package.json (the executable). */
export const PACKAGE_FOLDER = findPackageFolder(dirname(fileURLToPath(import.meta.url)));

/**
 * The server's version, from its package.json.
 *
 * @example
 * console.log(`youyou-server ${SERVER_VERSION}`);
 */
export const SERVER_VERSION: string =
  PACKAGE_FOLDER === undefined
    ? (BUILD_MANIFEST?.version ?? '0.0.0')
    : (JSON.parse(readFileSync(join(PACKAGE_FOLDER, 'package.json'), 'utf8')) as { version: string }).version;
