import type { ArtifactDiff } from '@youyou/contracts';
import { formatPatch, structuredPatch, type StructuredPatch } from 'diff';

const CONTEXT = 3;
/** Characters compared at once while looking for the first and last difference. */
const CHUNK = 4096;

/** Where the `count`-th line after `from` starts (or the end of `text`). */
function skipLines(text: string, from: number, count: number): number {
  let at = from;
  for (let line = 0; line < count && at < text.length; line++) {
    const newline = text.indexOf('\n', at);
    at = newline === -1 ? text.length : newline + 1;
  }
  return at;
}

/** Where the line `count` lines before the one starting at `from` starts. */
function backLines(text: string, from: number, count: number): number {
  let at = from;
  for (let line = 0; line < count && at > 0; line++) {
    // `at - 1` is the newline that ends the line before; the one before it ends the line before that.
    const newline = at < 2 ? -1 : text.lastIndexOf('\n', at - 2);
    at = newline === -1 ? 0 : newline + 1;
  }
  return at;
}

function linesBefore(text: string, end: number): number {
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < end; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

/**
 * The part of two texts a line diff has to look at: whole lines from the first that differs to
 * the last that differs, with `CONTEXT` equal lines on each side. A one-line edit of a 1 MB
 * document leaves a few hundred bytes to diff instead of 1 MB (jsdiff tokenises every line it is
 * given), and the hunks are the same: outside the window the texts are equal line for line.
 */
function window(before: string, after: string): { before: string; after: string; skippedLines: number } {
  const shorter = Math.min(before.length, after.length);
  // Whole chunks first (string equality is a memory compare), then character by character.
  let prefix = 0;
  while (
    prefix + CHUNK <= shorter &&
    before.slice(prefix, prefix + CHUNK) === after.slice(prefix, prefix + CHUNK)
  ) {
    prefix += CHUNK;
  }
  while (prefix < shorter && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  if (prefix === before.length && prefix === after.length) return { before: '', after: '', skippedLines: 0 };
  const room = shorter - prefix;
  let suffix = 0;
  while (
    suffix + CHUNK <= room &&
    before.slice(before.length - suffix - CHUNK, before.length - suffix) ===
      after.slice(after.length - suffix - CHUNK, after.length - suffix)
  ) {
    suffix += CHUNK;
  }
  while (
    suffix < room &&
    before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)
  ) {
    suffix++;
  }
  // Back to the start of the line the first difference is on, then CONTEXT lines more.
  const lineStart = prefix === 0 ? 0 : before.lastIndexOf('\n', prefix - 1) + 1;
  const start = backLines(before, lineStart, CONTEXT);
  // Forward from the end of the last differing line (in `before`), CONTEXT lines more.
  const beforeEnd = before.length - suffix;
  const afterEnd = after.length - suffix;
  const lineEnd = (() => {
    const newline = before.indexOf('\n', Math.max(beforeEnd, lineStart));
    return newline === -1 ? before.length : newline + 1;
  })();
  const end = skipLines(before, lineEnd, CONTEXT);
  const tail = before.length - end;
  // The same tail of `after`: the texts are equal after their differences.
  if (after.length - tail < afterEnd || after.length - tail < start) {
    return { before, after, skippedLines: 0 };
  }
  return {
    before: before.slice(start, end),
    after: after.slice(start, after.length - tail),
    skippedLines: linesBefore(before, start),
  };
}

function patchOf(title: string, from: number, to: number, before: string, after: string): StructuredPatch {
  const part = window(before, after);
  const patch = structuredPatch(title, title, part.before, part.after, `v${from}`, `v${to}`, {
    context: CONTEXT,
  });
  if (part.skippedLines === 0) return patch;
  // A window that ends before the texts do is followed by equal lines: a "no newline at end of
  // file" mark inside it would be wrong (windows end after a newline, so jsdiff adds none).
  return {
    ...patch,
    hunks: patch.hunks.map((hunk) => ({
      ...hunk,
      oldStart: hunk.oldStart + part.skippedLines,
      newStart: hunk.newStart + part.skippedLines,
    })),
  };
}

/**
 * A line diff of two texts (jsdiff's Myers diff over the lines that differ and their context), as
 * hunks and as a unified patch.
 *
 * @example
 * const diff = diffTexts({ artifactId, title: 'plan.md', from: 1, to: 2, before, after });
 * diff.added; // lines added
 */
export function diffTexts(options: {
  artifactId: string;
  title: string;
  from: number;
  to: number;
  before: string;
  after: string;
}): ArtifactDiff {
  const patch = patchOf(options.title, options.from, options.to, options.before, options.after);
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added++;
      else if (line.startsWith('-')) removed++;
    }
  }
  return {
    artifact_id: options.artifactId,
    from: options.from,
    to: options.to,
    added,
    removed,
    hunks: patch.hunks.map((hunk) => ({
      old_start: hunk.oldStart,
      old_lines: hunk.oldLines,
      new_start: hunk.newStart,
      new_lines: hunk.newLines,
      lines: hunk.lines,
    })),
    unified: formatPatch(patch),
  };
}

/** Lines added and removed between two texts, without building hunks for a client. */
export function countChanges(before: string, after: string): { added: number; removed: number } {
  const { added, removed } = diffTexts({ artifactId: '', title: '', from: 0, to: 0, before, after });
  return { added, removed };
}
