import { existsSync } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import type { Context } from 'hono';
import { MINIMAL_PAGE, MINIMAL_SCRIPT, MINIMAL_STYLE } from './minimal-page.ts';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves the built web app from `root` (a single-page app: unknown paths get index.html), or the
 * minimal page when there is none. A path is served only when its real location (symlinks
 * resolved) is inside the root.
 *
 * @example
 * app.get('*', (c) => serveWeb(c, webRoot));
 */
export async function serveWeb(c: Context, root: string | undefined): Promise<Response> {
  const path = c.req.path;
  if (root === undefined || !existsSync(join(root, 'index.html'))) {
    if (path === '/_workbench/page.js')
      return c.body(MINIMAL_SCRIPT, 200, { 'content-type': TYPES['.js'] as string });
    if (path === '/_workbench/page.css')
      return c.body(MINIMAL_STYLE, 200, { 'content-type': TYPES['.css'] as string });
    return c.html(MINIMAL_PAGE);
  }
  const base = await realpath(root);
  let file = resolve(base, `.${decodeURIComponent(path)}`);
  try {
    file = await realpath(file);
    if (!(file === base || file.startsWith(base + sep)) || !(await stat(file)).isFile())
      file = join(base, 'index.html');
  } catch {
    file = join(base, 'index.html');
  }
  const type = TYPES[extname(file)] ?? 'application/octet-stream';
  const immutable = file.includes(`${sep}assets${sep}`);
  return c.body(new Uint8Array(await readFile(file)), 200, {
    'content-type': type,
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
}
