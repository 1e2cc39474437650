import { closeSync, openSync, readSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { AgentError, type ToolHandler } from '@youyou/agent';
import { globFilter, skippedNote, walkFiles } from './file-walk.ts';
import { errorOutput } from './tool-errors.ts';
import type { ScopeOf } from './tool-scope.ts';

const MAX_FILE_BYTES = 4 * 1024 * 1024;
/** The longest the search holds the event loop before it yields to other requests. */
const SLICE_MS = 4;
const MAX_LINE_CHARS = 300;

export interface SearchOptions {
  pattern: string;
  regex: boolean;
  caseSensitive: boolean;
  glob?: string;
  contextLines: number;
  maxResults: number;
  signal?: AbortSignal;
  /** Whether a real path may be read; symlinks are resolved before it is asked (see walkFiles). */
  allows?: (real: string) => boolean;
}

export interface SearchMatch {
  path: string;
  line: number;
  text: string;
  before: { line: number; text: string }[];
  after: { line: number; text: string }[];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function clip(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
}

/** Reused by every read (grown as needed): one search reads thousands of small files. */
let readBuffer = Buffer.allocUnsafe(64 * 1024);

/**
 * A file's bytes, or undefined when it cannot be read or is larger than the search reads. Read
 * synchronously: for the small files a project holds, four thread-pool round trips per file cost
 * several times the read itself (benchmark: bench/server/search-files.ts), and the search yields
 * the event loop every few milliseconds anyway. Read to the end into a shared buffer rather than
 * sized by fstat first: one system call fewer a file. The bytes are a view of that buffer, valid
 * until the next read (the caller is done with them before it reads again, without yielding).
 */
function readSmallFile(file: string): Buffer | undefined {
  let descriptor: number;
  try {
    descriptor = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    let read = 0;
    for (;;) {
      if (read === readBuffer.length) {
        if (read > MAX_FILE_BYTES) return undefined;
        const grown = Buffer.allocUnsafe(Math.min(readBuffer.length * 2, MAX_FILE_BYTES + 1));
        readBuffer.copy(grown, 0, 0, read);
        readBuffer = grown;
      }
      const count = readSync(descriptor, readBuffer, read, readBuffer.length - read, null);
      if (count === 0) break;
      read += count;
    }
    return read > MAX_FILE_BYTES ? undefined : readBuffer.subarray(0, read);
  } catch {
    return undefined;
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Searches the text files below `root` (honouring `.gitignore`) for a literal or a regular
 * expression, line by line, in slices of a few milliseconds that yield to the event loop. Results
 * are in path order; the search stops at `maxResults` matches.
 *
 * @example
 * const { matches } = await searchFiles('/project', { pattern: 'needle', regex: false, caseSensitive: false, contextLines: 1, maxResults: 100 });
 */
export async function searchFiles(
  root: string,
  options: SearchOptions,
): Promise<{ matches: SearchMatch[]; filesSearched: number; truncated: boolean; skipped: string[] }> {
  // An ASCII literal needs no Unicode mode, and V8 matches it several times faster without.
  const asciiLiteral = !options.regex && /^[\x20-\x7e]*$/.test(options.pattern);
  const expression = new RegExp(
    options.regex ? options.pattern : escapeRegExp(options.pattern),
    `${options.caseSensitive ? '' : 'i'}${asciiLiteral ? '' : 'u'}`,
  );
  const literal = !options.regex && options.caseSensitive ? Buffer.from(options.pattern) : undefined;
  // A literal on one line, without context lines, is found in the whole text at once: only the
  // matching lines are cut out, instead of splitting every matching file into lines.
  const lineFinder =
    !options.regex && options.contextLines === 0 && !/[\r\n]/.test(options.pattern)
      ? matchingLines(new RegExp(expression.source, `${expression.flags}g`))
      : undefined;
  const matches = globFilter(options.glob);
  // By position, not by real path: a file reached through a link is searched under each name.
  const files: string[] = [];
  const relatives: string[] = [];
  const skipped: string[] = [];
  for await (const entry of walkFiles(root, {
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.allows === undefined ? {} : { allows: options.allows }),
  })) {
    if (entry.outside === true) {
      skipped.push(entry.relative);
      continue;
    }
    if (entry.directory || !matches(entry.relative)) continue;
    files.push(entry.absolute);
    relatives.push(entry.relative);
  }
  const perFile: SearchMatch[][] = new Array<SearchMatch[]>(files.length);
  let found = 0;
  let searched = 0;
  let slice = performance.now();
  for (let index = 0; index < files.length; index++) {
    if (found >= options.maxResults || options.signal?.aborted === true) break;
    if (performance.now() - slice > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
    const file = files[index] as string;
    const bytes = readSmallFile(file);
    if (bytes === undefined) continue;
    searched++;
    if (bytes.subarray(0, 8192).includes(0)) continue;
    if (literal !== undefined && bytes.indexOf(literal) === -1) continue;
    const text = bytes.toString('utf8');
    if (literal === undefined && !expression.test(text)) continue;
    if (lineFinder !== undefined) {
      const results = lineFinder(text, relatives[index] as string);
      perFile[index] = results;
      found += results.length;
      continue;
    }
    const lines = text.split(/\r?\n/);
    const results: SearchMatch[] = [];
    for (let number = 0; number < lines.length; number++) {
      const line = lines[number] as string;
      if (!expression.test(line)) continue;
      const context = options.contextLines;
      results.push({
        path: relatives[index] as string,
        line: number + 1,
        text: clip(line),
        before: lines.slice(Math.max(0, number - context), number).map((value, offset) => ({
          line: Math.max(0, number - context) + offset + 1,
          text: clip(value),
        })),
        after: lines
          .slice(number + 1, number + 1 + context)
          .map((value, offset) => ({ line: number + offset + 2, text: clip(value) })),
      });
    }
    perFile[index] = results;
    found += results.length;
  }
  const all = perFile.flatMap((results) => results ?? []);
  return {
    matches: all.slice(0, options.maxResults),
    filesSearched: searched,
    truncated: all.length > options.maxResults || found >= options.maxResults,
    skipped,
  };
}

/**
 * The lines of `text` that `expression` (global, and never matching across a line break) matches,
 * numbered as `split(/\r?\n/)` would number them, one result per line.
 */
function matchingLines(expression: RegExp): (text: string, path: string) => SearchMatch[] {
  return (text, path) => {
    const results: SearchMatch[] = [];
    let counted = 0;
    let line = 1;
    expression.lastIndex = 0;
    for (let match = expression.exec(text); match !== null; match = expression.exec(text)) {
      const start = text.lastIndexOf('\n', match.index - 1) + 1;
      for (let at = text.indexOf('\n', counted); at !== -1 && at < start; at = text.indexOf('\n', at + 1)) {
        line++;
        counted = at + 1;
      }
      counted = Math.max(counted, start);
      const newline = text.indexOf('\n', match.index);
      const end = newline === -1 ? text.length : newline;
      const value = text.slice(start, end);
      results.push({
        path,
        line,
        text: clip(value.endsWith('\r') ? value.slice(0, -1) : value),
        before: [],
        after: [],
      });
      if (newline === -1) break;
      expression.lastIndex = newline + 1;
    }
    return results;
  };
}

/** The matches as ripgrep prints them: `path:line:text`, context lines as `path-line-text`. */
function render(matches: readonly SearchMatch[], prefix: string): string {
  const lines: string[] = [];
  let lastPath = '';
  let lastLine = 0;
  for (const match of matches) {
    const path = `${prefix}${match.path}`;
    const first = match.before[0]?.line ?? match.line;
    if (
      lines.length > 0 &&
      (path !== lastPath || first > lastLine + 1) &&
      match.before.length + match.after.length > 0
    ) {
      lines.push('--');
    }
    for (const line of match.before)
      if (path !== lastPath || line.line > lastLine) lines.push(`${path}-${line.line}-${line.text}`);
    lines.push(`${path}:${match.line}:${match.text}`);
    for (const line of match.after) lines.push(`${path}-${line.line}-${line.text}`);
    lastPath = path;
    lastLine = match.after.at(-1)?.line ?? match.line;
  }
  return lines.join('\n');
}

/**
 * `search_files`: a regex or literal search over the project's text files.
 *
 * @example
 * builder.addTool(searchFilesTool(scopeOf));
 */
export function searchFilesTool(scopeOf: ScopeOf): ToolHandler {
  return {
    name: 'search_files',
    description:
      'Searches the project’s text files (honours .gitignore) for a literal string or, with regex: true, a JavaScript regular expression; case-insensitive unless case_sensitive. Prints path:line:text.',
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string', minLength: 1, description: 'What to look for.' },
        regex: {
          type: 'boolean',
          description: 'A regular expression (default: literal).',
        },
        case_sensitive: { type: 'boolean', description: 'Default false.' },
        glob: { type: 'string', description: 'Only files matching this glob ("*.ts", "docs/**").' },
        path: {
          type: 'string',
          description: 'A folder in the project (default ".").',
        },
        context_lines: {
          type: 'integer',
          minimum: 0,
          maximum: 10,
          description: 'Context lines (default 0).',
        },
        max_results: {
          type: 'integer',
          minimum: 1,
          maximum: 1000,
          description: 'Default 100.',
        },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
    mutating: false,
    async execute({ arguments: input }, context) {
      try {
        const scope = await scopeOf(context);
        const target = typeof input.path === 'string' && input.path !== '' ? input.path : '.';
        const real = await scope.resolve(target);
        if (!(await stat(real)).isDirectory()) {
          throw new AgentError('INVALID_INPUT', `'${target}' is a file; search_files searches a directory.`);
        }
        const pattern = String(input.pattern);
        const regex = input.regex === true;
        if (regex) {
          try {
            new RegExp(pattern, 'u');
          } catch (error) {
            throw new AgentError(
              'INVALID_INPUT',
              `The pattern is not a valid regular expression: ${(error as Error).message}`,
            );
          }
        }
        const maxResults = typeof input.max_results === 'number' ? input.max_results : 100;
        const result = await searchFiles(real, {
          pattern,
          regex,
          caseSensitive: input.case_sensitive === true,
          ...(typeof input.glob === 'string' ? { glob: input.glob } : {}),
          contextLines: typeof input.context_lines === 'number' ? input.context_lines : 0,
          maxResults,
          signal: context.signal,
          allows: (file) => scope.allows(file),
        });
        const prefix = scope.display(real) === '.' ? '' : `${scope.display(real)}/`;
        const header =
          result.matches.length === 0
            ? `No matches for ${JSON.stringify(pattern)} in ${result.filesSearched} files.`
            : `${result.matches.length}${result.truncated ? '+' : ''} matches in ${new Set(result.matches.map((match) => match.path)).size} files${result.truncated ? ` (stopped at ${maxResults})` : ''}:`;
        const body = result.matches.length === 0 ? header : `${header}\n${render(result.matches, prefix)}`;
        return {
          content: `${body}${skippedNote(result.skipped.map((relative) => `${prefix}${relative}`))}`,
          metadata: {
            matches: result.matches.length,
            files_searched: result.filesSearched,
            truncated: result.truncated,
            skipped_links: result.skipped.length,
          },
        };
      } catch (error) {
        return errorOutput(error);
      }
    },
  };
}
