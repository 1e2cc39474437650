import { existsSync, readdirSync, statSync } from 'node:fs';
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

/** The newest modification time of the files under `path` (0 when it is not there). */
function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, entry)));
  return newest;
}

/**
 * True when the build is there and newer than what it is made from: the app's sources and the
 * sources of the workspace packages it bundles (a build left from before a merge is stale).
 *
 * @example
 * if (!isWebAppCurrent()) execFileSync('npm', ['run', 'build', '-w', '@youyou/web']);
 */
export function isWebAppCurrent(): boolean {
  if (!isWebAppBuilt()) return false;
  const app = dirname(webAppDirectory);
  const built = statSync(join(webAppDirectory, 'index.html')).mtimeMs;
  const sources = [join(app, 'src'), join(app, 'index.html'), join(app, 'vite.config.ts')];
  for (const name of ['contracts', 'client']) sources.push(join(app, '..', '..', 'packages', name, 'src'));
  return sources.every((source) => newestChange(source) <= built);
}
