import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface ShellSize {
  files: { path: string; bytes: number; gzip: number }[];
  jsBytes: number;
  jsGzip: number;
  cssGzip: number;
}

/**
 * The JavaScript the browser must load before the app shell runs: the entry module of index.html
 * and every module it preloads (Vite's modulepreload links), gzipped at level 9. Chunks loaded
 * later (highlighting, math, diagrams, a language grammar) are not counted.
 */
export async function measureShellSize(distDirectory: string): Promise<ShellSize> {
  const html = await readFile(join(distDirectory, 'index.html'), 'utf8');
  const scripts = [
    ...html.matchAll(/<script[^>]+src="([^"]+)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
  ].map((match) => match[1] ?? '');
  const styles = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map(
    (match) => match[1] ?? '',
  );
  const files: ShellSize['files'] = [];
  const measure = async (path: string) => {
    const bytes = await readFile(join(distDirectory, path.replace(/^\.?\//, '')));
    const entry = { path, bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    files.push(entry);
    return entry;
  };
  let jsBytes = 0;
  let jsGzip = 0;
  for (const script of new Set(scripts)) {
    const entry = await measure(script);
    jsBytes += entry.bytes;
    jsGzip += entry.gzip;
  }
  let cssGzip = 0;
  for (const style of new Set(styles)) cssGzip += (await measure(style)).gzip;
  return { files, jsBytes, jsGzip, cssGzip };
}
