// What a tarball holds and what installing it costs: the checks of decision 0044 (package hygiene).
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';

/** What `npm pack --json` reports for one package. */
export interface PackReport {
  name: string;
  size: number;
  unpackedSize: number;
  files: { path: string }[];
}

/**
 * The `sources` of the source maps in a tarball that name no file of that tarball (a map pointing
 * at an unshipped `../src` is what a debugger or a stack-trace tool then fails to open).
 *
 * @example
 * expect(await danglingMapSources(report, 'node_modules/@youyou/agent')).toEqual([]);
 */
export async function danglingMapSources(report: PackReport, installed: string): Promise<string[]> {
  const shipped = new Set(report.files.map((file) => file.path));
  const dangling: string[] = [];
  for (const { path } of report.files) {
    if (!path.endsWith('.map')) continue;
    const map = JSON.parse(await readFile(join(installed, path), 'utf8')) as {
      sources?: string[];
      sourceRoot?: string;
    };
    for (const source of map.sources ?? []) {
      const resolved = posix.normalize(posix.join(posix.dirname(path), map.sourceRoot ?? '', source));
      if (!shipped.has(resolved)) dangling.push(`${path} -> ${source}`);
    }
  }
  return dangling;
}

async function folderBytes(folder: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    // A package's own nested node_modules is counted through its dependencies instead.
    if (entry.isDirectory() && entry.name !== 'node_modules') total += await folderBytes(path);
    else if (entry.isFile()) total += (await stat(path)).size;
  }
  return total;
}

/** Where Node would find `name` from inside `from` (a package folder), walking up node_modules. */
function resolvePackage(name: string, from: string, root: string): string | undefined {
  for (let folder = from; ; folder = dirname(folder)) {
    const candidate = join(folder, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (folder === root || dirname(folder) === folder) return undefined;
  }
}

/**
 * The bytes on disk of a package installed in `project` and of every package its `dependencies`
 * and `optionalDependencies` pull in, each counted once: what `npm install` of it alone costs
 * (peers are the user's choice and are not counted).
 *
 * @example
 * await installedBytes(project, '@youyou/testing'); // 1_234_567
 */
export async function installedBytes(project: string, name: string): Promise<number> {
  const seen = new Set<string>();
  const pending: { name: string; from: string }[] = [{ name, from: project }];
  let total = 0;
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const folder = resolvePackage(next.name, next.from, project);
    if (folder === undefined || seen.has(folder)) continue;
    seen.add(folder);
    total += await folderBytes(folder);
    const manifest = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    for (const dependency of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies }))
      pending.push({ name: dependency, from: folder });
  }
  return total;
}
