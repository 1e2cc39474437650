import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { minimatch } from 'minimatch';

/** A file or directory the walk found, relative to the walk's root with `/` separators. */
export interface WalkEntry {
  relative: string;
  absolute: string;
  directory: boolean;
  depth: number;
}

interface Matcher {
  /** Relative path of the directory whose .gitignore this is ('' for the root). */
  base: string;
  rules: Ignore;
}

export interface WalkOptions {
  /** Directory levels below the root to enter; 0 lists only the root's entries. */
  maxDepth?: number;
  /** Stops the walk. */
  signal?: AbortSignal;
}

const ALWAYS_SKIPPED: ReadonlySet<string> = new Set(['.git', '.hg', '.svn']);

function ignoredBy(matchers: readonly Matcher[], relative: string, directory: boolean): boolean {
  for (const matcher of matchers) {
    const inside = matcher.base === '' ? relative : relative.slice(matcher.base.length + 1);
    if (matcher.rules.ignores(directory ? `${inside}/` : inside)) return true;
  }
  return false;
}

function gitignoreOf(directory: string, base: string): Matcher | undefined {
  let text: string;
  try {
    text = readFileSync(path.join(directory, '.gitignore'), 'utf8');
  } catch {
    return undefined;
  }
  return { base, rules: ignore().add(text) };
}

/** How long the walk may hold the event loop before it lets others run. */
const SLICE_MS = 8;

/**
 * Walks a directory tree breadth first, honouring every `.gitignore` on the way (each applies to
 * its own directory and below, as git reads them) and skipping VCS folders. Symlinks are not
 * followed: a link is listed as a file and resolved by whoever opens it, through the scope check.
 * Directories are listed synchronously, in slices of a few milliseconds that yield to the event
 * loop: a thread-pool round trip per directory (and a failed open of a `.gitignore` that is not
 * there) cost more than the listing itself. A directory's `.gitignore` is read only when its
 * listing has one.
 *
 * @example
 * for await (const entry of walkFiles('/project', { maxDepth: 2 })) console.log(entry.relative);
 */
export async function* walkFiles(root: string, options: WalkOptions = {}): AsyncGenerator<WalkEntry> {
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  let level: { absolute: string; relative: string; matchers: Matcher[] }[] = [
    { absolute: root, relative: '', matchers: [] },
  ];
  let slice = performance.now();
  for (let depth = 0; level.length > 0 && depth <= maxDepth; depth++) {
    const next: typeof level = [];
    for (const directory of level) {
      if (options.signal?.aborted) return;
      if (performance.now() - slice > SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        slice = performance.now();
      }
      let entries;
      try {
        entries = readdirSync(directory.absolute, { withFileTypes: true });
      } catch {
        continue;
      }
      const own = entries.some((entry) => entry.name === '.gitignore' && !entry.isDirectory())
        ? gitignoreOf(directory.absolute, directory.relative)
        : undefined;
      const matchers = own === undefined ? directory.matchers : [...directory.matchers, own];
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        if (ALWAYS_SKIPPED.has(entry.name)) continue;
        const relative = directory.relative === '' ? entry.name : `${directory.relative}/${entry.name}`;
        const isDirectory = entry.isDirectory();
        if (ignoredBy(matchers, relative, isDirectory)) continue;
        const absolute = path.join(directory.absolute, entry.name);
        yield { relative, absolute, directory: isDirectory, depth };
        if (isDirectory && depth < maxDepth) next.push({ absolute, relative, matchers });
      }
    }
    level = next;
  }
}

/**
 * A glob filter over relative paths: a pattern without `/` matches the file name at any depth
 * (`*.ts`), one with `/` matches the whole path (`src/**\/*.ts`), as ripgrep's `-g` does.
 *
 * @example
 * globFilter('*.md')('docs/readme.md'); // true
 */
export function globFilter(glob: string | undefined): (relative: string) => boolean {
  if (glob === undefined || glob.trim() === '') return () => true;
  const pattern = glob.trim();
  const onName = !pattern.includes('/');
  return (relative) =>
    minimatch(onName ? relative.slice(relative.lastIndexOf('/') + 1) : relative, pattern, { dot: true });
}
