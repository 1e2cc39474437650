/** Titles are at most this long. */
export const TITLE_LENGTH = 80;

/**
 * A conversation title from the first exchange: the first line of text with whitespace folded,
 * cut at a word boundary. Empty when there is no text.
 *
 * @example
 * titleFromText('  Why does the parser\nfail?'); // 'Why does the parser'
 */
export function titleFromText(text: string): string {
  const line = text.split('\n').find((candidate) => candidate.trim() !== '') ?? '';
  // Control characters (NUL included, which PostgreSQL cannot store) never belong in a title.
  const folded = line
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000e-\u001f\u007f]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (folded.length <= TITLE_LENGTH) return folded;
  const cut = folded.slice(0, TITLE_LENGTH);
  const space = cut.lastIndexOf(' ');
  return `${(space > TITLE_LENGTH / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
