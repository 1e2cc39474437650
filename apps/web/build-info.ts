import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder `vite build` writes the workbench UI to (the server's default web root); it serves its files and answers
 * every other non-API path with its `index.html` (client-side routes).
 *
 * @example
 * import { webAppDirectory, isWebAppBuilt } from '@youyou/web';
 * if (isWebAppBuilt()) serveStatic({ root: webAppDirectory });
 */
export const webAppDirectory: string = join(dirname(fileURLToPath(import.meta.url)), 'dist');

/**
 * True once `npm run build -w @youyou/web` has produced `index.html`.
 *
 * @example
 * if (!isWebAppBuilt()) console.warn('Run npm run build -w @youyou/web first.');
 */
export function isWebAppBuilt(): boolean {
  return existsSync(join(webAppDirectory, 'index.html'));
}
