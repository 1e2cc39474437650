import type { BlockLocation, DocumentBlock } from '@youyou/contracts';

/**
 * A table block of `rows` (the first is the header) under the row cap, with a `parser_note`
 * paragraph saying what was cut — the model and the user see that the table is longer.
 *
 * @example
 * cappedTable(rows, 500, { sheet: 'Data' }, 'Sheet Data');
 */
export function cappedTable(
  rows: string[][],
  maxRows: number,
  location: BlockLocation,
  label: string,
  /** The body rows the source has, when `rows` holds only the first ones (a streaming reader). */
  totalBodyRows?: number,
): DocumentBlock[] {
  const [header = [], ...body] = rows;
  const total = Math.max(totalBodyRows ?? body.length, body.length);
  if (total <= maxRows) return [{ type: 'table', header, rows: body, location }];
  return [
    { type: 'table', header, rows: body.slice(0, maxRows), total_rows: total, location },
    {
      type: 'paragraph',
      role: 'parser_note',
      text: `${label}: rows ${maxRows + 1}–${total} (${total - maxRows} of ${total} rows) were cut by the row cap of ${maxRows}.`,
      location,
    },
  ];
}
