/**
 * A count as the UI writes it: digits grouped by three with commas ("12,345"), the convention of
 * both UI languages (en, zh-CN). Grouped here rather than by Intl: a page's first Intl call
 * initialises the locale data (~25 ms on this class of machine), which the first screen — token
 * counts under every answer — would otherwise pay. Fractions, which counts are not, go to Intl.
 */
export function formatCount(value: number): string {
  if (!Number.isSafeInteger(value)) return value.toLocaleString('en-US');
  const digits = String(Math.abs(value));
  let grouped = '';
  for (let end = digits.length; end > 0; end -= 3)
    grouped = `${digits.slice(Math.max(0, end - 3), end)}${grouped === '' ? '' : `,${grouped}`}`;
  return value < 0 ? `-${grouped}` : grouped;
}
