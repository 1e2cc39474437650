/** The most terms one query searches for; the rest are ignored. */
const MAX_TERMS = 12;

/**
 * The terms of a search query: `"quoted phrases"` whole, everything else split at white space,
 * lower-cased, duplicates dropped. Punctuation inside a term stays (`INV-2024-0042`, `a.b_c`), since
 * the trigram index matches substrings.
 *
 * @example
 * queryTerms('"refund policy" INV-2024 营收'); // ['refund policy', 'inv-2024', '营收']
 */
export function queryTerms(query: string): string[] {
  const terms: string[] = [];
  const pattern = /"([^"]+)"|(\S+)/g;
  for (const match of query.matchAll(pattern)) {
    const term = (match[1] ?? match[2] ?? '').replace(/\s+/g, ' ').trim().toLowerCase();
    if (term !== '' && !terms.includes(term)) terms.push(term);
    if (terms.length === MAX_TERMS) break;
  }
  return terms;
}

/** Characters as the trigram tokenizer counts them (code points, not UTF-16 units). */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/** True when the trigram index can find `term`: three characters or more. */
export function indexable(term: string): boolean {
  return characterCount(term) >= 3;
}

/** `term` as an FTS5 string: in double quotes, inner quotes doubled (no query syntax survives). */
export function ftsPhrase(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/** `term` as a LIKE pattern `%term%` with `\` escaping `%`, `_` and itself. */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]{4,}/u;

/**
 * The terms of a loose (any-term) search: as `queryTerms`, with long CJK runs — a Chinese question
 * has no spaces — cut into overlapping three-character pieces, so a question finds passages that
 * share some of its words.
 *
 * @example
 * looseTerms('营收增长了多少'); // ['营收增', '收增长', '增长了', '长了多', '了多少']
 */
export function looseTerms(query: string): string[] {
  const terms: string[] = [];
  for (const term of queryTerms(query)) {
    if (!CJK_RUN.test(term)) {
      terms.push(term);
      continue;
    }
    const characters = [...term];
    for (let at = 0; at + 3 <= characters.length; at += 1) terms.push(characters.slice(at, at + 3).join(''));
  }
  return [...new Set(terms)].slice(0, 24);
}
