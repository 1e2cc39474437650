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
): DocumentBlock[] {
  const [header = [], ...body] = rows;
  if (body.length <= maxRows) return [{ type: 'table', header, rows: body, location }];
  return [
    { type: 'table', header, rows: body.slice(0, maxRows), total_rows: body.length, location },
    {
      type: 'paragraph',
      role: 'parser_note',
      text: `${label}: rows ${maxRows + 1}–${body.length} (${body.length - maxRows} of ${body.length} rows) were cut by the row cap of ${maxRows}.`,
      location,
    },
  ];
}
