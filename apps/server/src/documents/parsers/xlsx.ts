import type { DocumentBlock, ParserProvider, ParserRef } from '@youyou/contracts';
import { finishDocument, ParseFailedError, parseSafely } from '../document-builder.ts';
import { entryText } from '../safe-zip.ts';
import {
  attribute,
  childElements,
  coreProperties,
  descendants,
  firstChild,
  parseXml,
  relationships,
  relationshipId,
  textOf,
} from '../xml.ts';
import { openOoxml } from './ooxml.ts';
import { cappedTable } from './table-cap.ts';

const REF: ParserRef = { id: 'builtin-xlsx', version: '1.0.0', source: 'builtin' };
const MAX_COLUMNS = 256;

/** `B12` → column index 1 (from 0). */
function columnOf(reference: string): number {
  let column = 0;
  for (const char of reference) {
    const code = char.charCodeAt(0);
    if (code < 65 || code > 90) break;
    column = column * 26 + (code - 64);
  }
  return column - 1;
}

/**
 * Excel workbooks, read from the OOXML directly: each sheet (in workbook order) as a heading and a
 * table of its cell values (shared and inline strings, numbers as stored, booleans, formula
 * results), the first row as header, rows past the cap cut with a note.
 */
export const xlsxParser: ParserProvider = {
  ...REF,
  source: 'builtin',
  formats: ['xlsx'],
  parse: (input, context) =>
    parseSafely(REF, async () => {
      const startedAt = Date.now();
      const entries = openOoxml(
        input.bytes,
        'xlsx',
        context.limits,
        (name) => name.endsWith('.xml') || name.endsWith('.rels'),
      );
      const workbook = parseXml(entryText(entries, 'xl/workbook.xml') ?? '', 'xl/workbook.xml');
      const rels = relationships(entryText(entries, 'xl/_rels/workbook.xml.rels'), 'xl');
      const sharedText = entryText(entries, 'xl/sharedStrings.xml');
      const shared =
        sharedText === undefined
          ? []
          : childElements(parseXml(sharedText, 'xl/sharedStrings.xml'), 'si').map((item) => textOf(item));
      const sheets = descendants(workbook, 'sheet').map((sheet) => ({
        name: attribute(sheet, 'name') ?? 'Sheet',
        path: rels.get(relationshipId(sheet) ?? '')?.target,
      }));
      const blocks: DocumentBlock[] = [];
      const warnings: string[] = [];
      for (const [index, sheet] of sheets.entries()) {
        if (context.signal.aborted) throw new ParseFailedError('timeout', 'The parse ran out of time.');
        context.progress(index / sheets.length, `sheet ${sheet.name}`);
        const text = sheet.path === undefined ? undefined : entryText(entries, sheet.path);
        if (text === undefined) continue;
        const data = descendants(parseXml(text, sheet.path as string), 'sheetData')[0];
        const rows: string[][] = [];
        let wide = false;
        for (const row of data === undefined ? [] : childElements(data, 'row')) {
          const cells: string[] = [];
          for (const cell of childElements(row, 'c')) {
            const reference = attribute(cell, 'r');
            const column = reference === undefined ? cells.length : columnOf(reference);
            if (column >= MAX_COLUMNS) {
              wide = true;
              continue;
            }
            const type = attribute(cell, 't');
            const value = firstChild(cell, 'v')?.textContent ?? '';
            let shown: string;
            if (type === 's') shown = shared[Number(value)] ?? '';
            else if (type === 'inlineStr') shown = textOf(cell);
            else if (type === 'b') shown = value === '1' ? 'TRUE' : 'FALSE';
            else shown = value;
            while (cells.length < column) cells.push('');
            cells[column] = shown;
          }
          if (cells.some((cell) => cell.trim() !== '')) rows.push(cells);
        }
        if (wide) warnings.push(`Sheet ${sheet.name}: columns past ${MAX_COLUMNS} were left out.`);
        const width = Math.max(0, ...rows.map((row) => row.length));
        const square = rows.map((row) => [...row, ...Array<string>(width - row.length).fill('')]);
        const location = { sheet: sheet.name };
        blocks.push({ type: 'heading', level: 2, text: sheet.name, location });
        if (square.length > 0)
          blocks.push(...cappedTable(square, context.limits.max_table_rows, location, `Sheet ${sheet.name}`));
      }
      const core = coreProperties(entryText(entries, 'docProps/core.xml'));
      return finishDocument({
        format: 'xlsx',
        parser: REF,
        blocks,
        facts: { title: core.title, author: core.author, sheets: sheets.map((sheet) => sheet.name) },
        startedAt,
        maxBlocks: context.limits.max_blocks,
        warnings,
      });
    }),
};
