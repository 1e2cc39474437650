import type { ParserProvider, ParserRef } from '@youyou/contracts';
import Papa from 'papaparse';
import { finishDocument, parseSafely } from '../document-builder.ts';
import { cappedTable } from './table-cap.ts';
import { decodeTextFile } from './text.ts';

const REF: ParserRef = { id: 'builtin-csv', version: '1.0.0+papaparse.5', source: 'builtin' };

/**
 * CSV (and TSV, by delimiter detection) by Papa Parse: one table, the first row as header, rows
 * past the cap cut with a note. Encodings as for text files.
 */
export const csvParser: ParserProvider = {
  ...REF,
  source: 'builtin',
  formats: ['csv'],
  parse: (input, context) =>
    parseSafely(REF, async () => {
      const startedAt = Date.now();
      const { decoded, warnings } = decodeTextFile(input.bytes);
      const result = Papa.parse<string[]>(decoded.text.replace(/^\ufeff/, ''), { skipEmptyLines: 'greedy' });
      const rows = result.data.map((row) => row.map((cell) => cell.trim()));
      for (const error of result.errors.slice(0, 5))
        warnings.push(`Row ${error.row ?? '?'}: ${error.message}`);
      return finishDocument({
        format: 'csv',
        parser: REF,
        blocks: cappedTable(rows, context.limits.max_table_rows, { line: 1 }, input.name),
        facts: {},
        startedAt,
        maxBlocks: context.limits.max_blocks,
        warnings,
      });
    }),
};
