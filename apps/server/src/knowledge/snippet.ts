import type { Highlight } from '@youyou/contracts';

/** Characters of context on either side of the first match. */
const RADIUS = 110;

/**
 * A snippet of `text` around the first place a term occurs, with every occurrence of any term in
 * it marked. Matching ignores case; the snippet keeps the original text.
 *
 * @example
 * snippetOf('… the refund policy says …', ['refund']); // { snippet: '… the refund policy says …', highlights: [{ start: 6, end: 12 }] }
 */
export function snippetOf(
  text: string,
  terms: readonly string[],
): { snippet: string; highlights: Highlight[] } {
  const flat = text.replace(/\s+/g, ' ').trim();
  const lower = flat.toLowerCase();
  // toLowerCase can change the length of a few characters; then only exact-case matches count.
  const haystack = lower.length === flat.length ? lower : flat;
  let first = -1;
  for (const term of terms) {
    const at = haystack.indexOf(term);
    if (at !== -1 && (first === -1 || at < first)) first = at;
  }
  const start = first === -1 ? 0 : Math.max(0, first - RADIUS);
  const end = Math.min(flat.length, (first === -1 ? 0 : first) + RADIUS * 2);
  const prefix = start > 0 ? '…' : '';
  const window = flat.slice(start, end);
  const snippet = `${prefix}${window}${end < flat.length ? '…' : ''}`;
  const highlights: Highlight[] = [];
  const windowHaystack = haystack.slice(start, end);
  for (const term of terms) {
    if (term === '') continue;
    for (
      let at = windowHaystack.indexOf(term);
      at !== -1;
      at = windowHaystack.indexOf(term, at + term.length)
    )
      highlights.push({ start: prefix.length + at, end: prefix.length + at + term.length });
  }
  highlights.sort((left, right) => left.start - right.start);
  const merged: Highlight[] = [];
  for (const highlight of highlights) {
    const last = merged[merged.length - 1];
    if (last !== undefined && highlight.start <= last.end) last.end = Math.max(last.end, highlight.end);
    else merged.push({ ...highlight });
  }
  return { snippet, highlights: merged };
}

/**
 * A snippet with its highlights as `**bold**` (what the model reads in tool results).
 *
 * @example
 * markedSnippet({ snippet: 'a refund b', highlights: [{ start: 2, end: 8 }] }); // 'a **refund** b'
 */
export function markedSnippet(value: { snippet: string; highlights: readonly Highlight[] }): string {
  let out = '';
  let at = 0;
  for (const { start, end } of value.highlights) {
    out += `${value.snippet.slice(at, start)}**${value.snippet.slice(start, end)}**`;
    at = end;
  }
  return out + value.snippet.slice(at);
}
