import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { minimatch } from 'minimatch';

/** A file or directory the walk found, relative to the walk's root with `/` separators. */
export interface WalkEntry {
  relative: string;
  absolute: string;
  directory: boolean;
  depth: number;
  /** A symlink whose real path the walk's `allows` refuses: not entered, not to be read. */
  outside?: true;
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
  /**
   * Whether a real path may be walked into or read. Given, every symlink is resolved first: one
   * allowed is followed (a linked folder is entered once), one refused is yielded as `outside`.
   */
  allows?: (real: string) => boolean;
}

/** A symlink's real path and kind, or undefined when it is broken. */
function resolveLink(absolute: string): { real: string; directory: boolean } | undefined {
  try {
    const real = realpathSync(absolute);
    return { real, directory: statSync(real).isDirectory() };
  } catch {
    return undefined;
  }
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
 * its own directory and below, as git reads them) and skipping VCS folders. Without `allows`,
 * symlinks are not followed (a link is listed as a file); with it, each link is resolved to its
 * real path before the check, so a link out of the allowed tree is never entered nor read.
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
  const entered = new Set<string>([root]);
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
        let absolute = path.join(directory.absolute, entry.name);
        let isDirectory = entry.isDirectory();
        if (options.allows !== undefined && entry.isSymbolicLink()) {
          const link = resolveLink(absolute);
          if (link === undefined) continue;
          if (!options.allows(link.real)) {
            if (!ignoredBy(matchers, relative, link.directory))
              yield { relative, absolute, directory: false, depth, outside: true };
            continue;
          }
          absolute = link.real;
          isDirectory = link.directory;
        }
        if (ignoredBy(matchers, relative, isDirectory)) continue;
        yield { relative, absolute, directory: isDirectory, depth };
        // A folder reached twice (through a link) is entered once: no loops, no duplicates.
        if (isDirectory && depth < maxDepth && !entered.has(absolute)) {
          entered.add(absolute);
          next.push({ absolute, relative, matchers });
        }
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

/**
 * The line a file tool appends when it skipped symlinks pointing out of the project, so the model
 * (and the user) know those paths were left out on purpose; empty when none was.
 *
 * @example
 * skippedNote(['src/leak.txt']); // '\n(Skipped 1 link pointing out of the project: src/leak.txt)'
 */
export function skippedNote(links: readonly string[]): string {
  if (links.length === 0) return '';
  const shown = links.slice(0, 20).join(', ');
  const more = links.length > 20 ? ` and ${links.length - 20} more` : '';
  return `\n(Skipped ${links.length} link${links.length === 1 ? '' : 's'} pointing out of the project: ${shown}${more})`;
}
