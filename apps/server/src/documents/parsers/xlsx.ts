import type { DocumentBlock, ParseContext, ParserProvider, ParserRef } from '@youyou/contracts';
import { format, getFormatFromId, isDateFormat } from 'numfmt';
import { finishDocument, ParseFailedError, parseSafely } from '../document-builder.ts';
import { entryText } from '../safe-zip.ts';
import {
  attribute,
  childElements,
  coreProperties,
  descendants,
  parseXml,
  relationshipId,
  relationships,
} from '../xml.ts';
import { openOoxml } from './ooxml.ts';
import { streamXml as stream } from './sax.ts';
import { cappedTable } from './table-cap.ts';

const REF: ParserRef = { id: 'builtin-xlsx', version: '1.2.0+saxes.6+numfmt.4', source: 'builtin' };
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

/** The shared strings table: each `<si>`'s text runs, phonetic guides (`<rPh>`) left out. */
function sharedStrings(text: string | undefined): string[] {
  if (text === undefined) return [];
  const out: string[] = [];
  let current: string[] | undefined;
  let inText = false;
  let phonetic = 0;
  stream(text, 'xl/sharedStrings.xml', {
    open(name) {
      if (name === 'si') current = [];
      else if (name === 'rPh') phonetic++;
      else if (name === 't') inText = phonetic === 0;
    },
    text(value) {
      if (inText) current?.push(value);
    },
    close(name) {
      if (name === 't') inText = false;
      else if (name === 'rPh') phonetic--;
      else if (name === 'si') {
        out.push((current ?? []).join(''));
        current = undefined;
      }
    },
  });
  return out;
}

/** Days from 1900-01-00 to 1904-01-01: a 1904-based workbook's serial plus this is a 1900 one. */
const DATE_1904_OFFSET = 1462;

/**
 * How a workbook shows its numbers: per cell style (`s`, an index into `cellXfs`) the number
 * format's code — custom ones from `numFmts`, built-in ids as Excel (en-US) shows them — and
 * whether its dates count from 1904. Styles with the General or Text format have no entry: their
 * numbers are shown as stored.
 */
interface NumberFormats {
  byStyle: (string | undefined)[];
  date1904: boolean;
}

function numberFormats(styles: string | undefined, workbook: ReturnType<typeof parseXml>): NumberFormats {
  const properties = descendants(workbook, 'workbookPr')[0];
  const value = properties === undefined ? undefined : attribute(properties, 'date1904');
  const date1904 = value === '1' || value === 'true';
  if (styles === undefined) return { byStyle: [], date1904 };
  const root = parseXml(styles, 'xl/styles.xml');
  const custom = new Map<number, string>();
  for (const numberFormat of descendants(root, 'numFmt')) {
    const id = Number(attribute(numberFormat, 'numFmtId'));
    const code = attribute(numberFormat, 'formatCode');
    if (Number.isInteger(id) && code !== undefined) custom.set(id, code);
  }
  const cellXfs = descendants(root, 'cellXfs')[0];
  const byStyle = (cellXfs === undefined ? [] : childElements(cellXfs, 'xf')).map((xf) => {
    const id = Number(attribute(xf, 'numFmtId') ?? 0);
    const code = custom.get(id) ?? (Number.isInteger(id) ? getFormatFromId(id) : undefined);
    if (code === undefined || code === '' || code === '@' || /^general$/i.test(code)) return undefined;
    return code;
  });
  return { byStyle, date1904 };
}

/** A number as its cell's format shows it (`45306` with `yyyy-mm-dd` → `2024-01-15`). */
function formatted(raw: string, code: string, date1904: boolean): string {
  const number = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(number)) return raw;
  const serial = date1904 && isDateFormat(code) ? number + DATE_1904_OFFSET : number;
  // An invalid or unrepresentable code shows the stored number rather than '######'.
  const shown = format(code, serial, { throws: false, invalid: raw, overflow: raw });
  return shown.trim();
}

/** One sheet's rows: the first `keep` non-empty rows in full, and how many there are in all. */
function sheetRows(
  text: string,
  part: string,
  shared: readonly string[],
  formats: NumberFormats,
  keep: number,
  context: ParseContext,
): { rows: string[][]; total: number; wide: boolean } {
  const rows: string[][] = [];
  let total = 0;
  let wide = false;
  let cells: string[] | undefined;
  let filled = false;
  let cell:
    { column: number; type: string | undefined; style: string | undefined; value: string[] } | undefined;
  let capture = false;
  stream(text, part, {
    open(name, attributes) {
      if (name === 'row') {
        cells = [];
        filled = false;
      } else if (name === 'c' && cells !== undefined) {
        const reference = attributes['r'];
        cell = {
          column: reference === undefined ? cells.length : columnOf(reference),
          type: attributes['t'],
          style: attributes['s'],
          value: [],
        };
      } else if (cell !== undefined && (name === 'v' || (name === 't' && cell.type === 'inlineStr'))) {
        capture = true;
      }
    },
    text(value) {
      if (capture) cell?.value.push(value);
    },
    close(name) {
      if (name === 'v' || name === 't') capture = false;
      else if (name === 'c' && cell !== undefined && cells !== undefined) {
        if (cell.column >= MAX_COLUMNS) wide = true;
        else {
          const raw = cell.value.join('');
          let shown: string;
          if (cell.type === 's') shown = shared[Number(raw)] ?? '';
          else if (cell.type === 'b') shown = raw === '1' ? 'TRUE' : 'FALSE';
          else if ((cell.type === undefined || cell.type === 'n') && cell.style !== undefined) {
            const code = formats.byStyle[Number(cell.style)];
            shown = code === undefined ? raw : formatted(raw, code, formats.date1904);
          } else shown = raw;
          if (shown.trim() !== '') filled = true;
          if (rows.length < keep) {
            while (cells.length < cell.column) cells.push('');
            cells[cell.column] = shown;
          }
        }
        cell = undefined;
      } else if (name === 'row' && cells !== undefined) {
        if (filled) {
          total++;
          if (rows.length < keep) rows.push(cells);
          if (total % 5000 === 0 && context.signal.aborted)
            throw new ParseFailedError('timeout', 'The parse ran out of time.');
        }
        cells = undefined;
      }
    },
  });
  return { rows, total, wide };
}

/**
 * Excel workbooks, read from the OOXML directly: each sheet (in workbook order) as a heading and a
 * table of its cell values (shared and inline strings, numbers as their number format shows them
 * — dates, times, percentages, currency, thousands separators — booleans, formula results), the first row as header, rows past the cap cut with a note. Sheets and shared strings
 * stream through saxes: past the cap, rows are only counted.
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
      const shared = sharedStrings(entryText(entries, 'xl/sharedStrings.xml'));
      const formats = numberFormats(entryText(entries, 'xl/styles.xml'), workbook);
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
        if (text === undefined || sheet.path === undefined) continue;
        // The header row and the capped body.
        const keep = context.limits.max_table_rows + 1;
        const { rows, total, wide } = sheetRows(text, sheet.path, shared, formats, keep, context);
        if (wide) warnings.push(`Sheet ${sheet.name}: columns past ${MAX_COLUMNS} were left out.`);
        const width = Math.max(0, ...rows.map((row) => row.length));
        const square = rows.map((row) =>
          Array.from({ length: width }, (_unused, column) => row[column] ?? ''),
        );
        const location = { sheet: sheet.name };
        blocks.push({ type: 'heading', level: 2, text: sheet.name, location });
        if (square.length > 0)
          blocks.push(
            ...cappedTable(
              square,
              context.limits.max_table_rows,
              location,
              `Sheet ${sheet.name}`,
              Math.max(0, total - 1),
            ),
          );
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
