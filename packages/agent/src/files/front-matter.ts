import { LineCounter, isMap, isPair, isScalar, isSeq, parseDocument } from 'yaml';
import type { Document, Node } from 'yaml';

/** A path into the front matter: keys and list indices, e.g. `['parameters', 1, 'type']`. */
export type FrontMatterPath = readonly (string | number)[];

/**
 * A parsed `index.md` / `SKILL.md`: the front matter mapping and the Markdown body.
 *
 * @example
 * const result = parseFrontMatter(text);
 * if (result.ok) result.value.lineOf(['execution', 'command']); // 7
 */
export interface FrontMatterDocument {
  data: Readonly<Record<string, unknown>>;
  body: string;
  /** 1-based line of the file where the value at `path` starts, when it is present. */
  lineOf(path: FrontMatterPath): number | undefined;
}

/**
 * Why a file could not be read as front matter + body, and where.
 *
 * @example
 * const failure: FrontMatterFailure = { reason: 'the front matter is not closed', line: 1 };
 */
export interface FrontMatterFailure {
  reason: string;
  line?: number;
}

/** The outcome of `parseFrontMatter`. @example if (!result.ok) console.log(result.failure.reason) */
export type FrontMatterResult =
  { ok: true; value: FrontMatterDocument } | { ok: false; failure: FrontMatterFailure };

/** Aliases expand at most this many times: a "billion laughs" file fails instead of eating memory. */
const MAX_ALIAS_COUNT = 100;

/**
 * Splits YAML front matter from a Markdown body and parses it. Never throws: every malformed input
 * comes back as `{ ok: false, failure }` with a reason and, when known, the file line.
 *
 * @example
 * const result = parseFrontMatter('---\nversion: 1\nname: grep\n---\nSearches files.\n');
 * if (result.ok) result.value.data['name']; // "grep"
 */
export function parseFrontMatter(text: string): FrontMatterResult {
  try {
    return parseUnsafe(text);
  } catch (error) {
    // A parser bug must not take the loader down; report it like any malformed file.
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, failure: { reason: `the front matter could not be parsed: ${message}` } };
  }
}

function parseUnsafe(input: string): FrontMatterResult {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  const lines = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  if (lines[0]?.trimEnd() !== '---') {
    return {
      ok: false,
      failure: { reason: 'missing front matter: the file must start with a line "---"', line: 1 },
    };
  }
  let closing = -1;
  for (let index = 1; index < lines.length; index += 1) {
    const line = lines[index]?.trimEnd();
    if (line === '---' || line === '...') {
      closing = index;
      break;
    }
  }
  if (closing === -1) {
    return {
      ok: false,
      failure: { reason: 'the front matter is not closed: no line "---" after the first', line: 1 },
    };
  }
  const source = lines.slice(1, closing).join('\n');
  const body = lines.slice(closing + 1).join('\n');
  const lineCounter = new LineCounter();
  const document = parseDocument(source, {
    lineCounter,
    prettyErrors: false,
    uniqueKeys: true,
    strict: true,
  });
  // The YAML starts on line 2 of the file.
  const fileLine = (offset: number): number => lineCounter.linePos(offset).line + 1;
  const firstError = document.errors[0];
  if (firstError !== undefined) {
    const summary = firstError.message.split('\n')[0] ?? firstError.message;
    const line = fileLine(firstError.pos[0]);
    return {
      ok: false,
      failure: {
        reason: `invalid YAML in the front matter: ${summary}${yamlHint(lines[line - 1] ?? '')}`,
        line,
      },
    };
  }
  if (!isMap(document.contents)) {
    const what = document.contents === null ? 'empty' : 'not a mapping of fields';
    return { ok: false, failure: { reason: `the front matter is ${what}`, line: 2 } };
  }
  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, failure: { reason: `the front matter could not be read: ${message}`, line: 2 } };
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { ok: false, failure: { reason: 'the front matter is not a mapping of fields', line: 2 } };
  }
  return {
    ok: true,
    value: {
      data: data as Record<string, unknown>,
      body,
      lineOf: (path) => {
        const node = nodeAt(document, path);
        const start = node?.range?.[0];
        return start === undefined ? undefined : fileLine(start);
      },
    },
  };
}

/**
 * The quoted line and, for the slip most hand-written front matter makes — an unquoted value
 * holding ": " such as `description: Use when: the user asks` — how to fix it.
 */
function yamlHint(line: string): string {
  const shown = line.length > 120 ? `${line.slice(0, 120)}…` : line;
  const quoted = ` (in ${JSON.stringify(shown.trim())})`;
  const colonInValue = /^(\s*[\w.-]+):\s+([^'"\s[{|>].*:(\s.*)?)$/.exec(line);
  if (colonInValue === null) return quoted;
  const key = (colonInValue[1] ?? '').trim();
  const value = (colonInValue[2] ?? '').trim().replaceAll('"', '\\"');
  return `${quoted}: a value containing ": " must be quoted, e.g. ${key}: "${value.length > 60 ? `${value.slice(0, 60)}…` : value}"`;
}

function nodeAt(document: Document, path: FrontMatterPath): Node | undefined {
  let node: unknown = document.contents;
  for (const step of path) {
    if (isMap(node)) {
      const pair = node.items.find(
        (item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(step),
      );
      if (pair === undefined) return undefined;
      node = pair.value ?? pair.key;
    } else if (isSeq(node) && typeof step === 'number') {
      node = node.items[step];
    } else {
      return undefined;
    }
  }
  return node === null || typeof node !== 'object' ? undefined : (node as Node);
}
