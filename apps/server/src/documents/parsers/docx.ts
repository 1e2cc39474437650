import type { DocumentBlock, ParserProvider, ParserRef } from '@youyou/contracts';
import { finishDocument, ParseFailedError, parseSafely, squash } from '../document-builder.ts';
import { entryText } from '../safe-zip.ts';
import { coreProperties, descendants, parseXml, textContent } from '../xml.ts';
import { notesOf, numberingFormats, paragraphStyles } from './docx-parts.ts';
import { openOoxml } from './ooxml.ts';
import { streamXml } from './sax.ts';
import { cappedTable } from './table-cap.ts';

const REF: ParserRef = { id: 'builtin-docx', version: '2.0.0+saxes.6', source: 'builtin' };

/** The parts a Word file's text is in; media and the rest are never inflated. */
const TEXT_PARTS = new Set([
  'word/document.xml',
  'word/styles.xml',
  'word/numbering.xml',
  'word/footnotes.xml',
  'word/endnotes.xml',
  'word/comments.xml',
  'docProps/core.xml',
  'docProps/app.xml',
  'ppt/presentation.xml',
  'xl/workbook.xml',
]);

interface ParagraphState {
  parts: string[];
  style: string | undefined;
  numId: string | undefined;
  ilvl: number;
  outline: number | undefined;
  inProperties: boolean;
  images: (string | null)[];
}

interface TableState {
  rows: string[][];
  row: string[] | undefined;
  cell: string[] | undefined;
}

/**
 * The body of `word/document.xml` as blocks, in one streaming pass: paragraphs by their style
 * (heading levels from the style's name or outline level) and numbering (lists, ordered or not,
 * with levels), tables (the first row as header; a nested table's text goes into its cell),
 * text boxes, images as references with their description. The fallback copy of alternate
 * content (`mc:Fallback`, the VML twin of a drawing) and deleted text are left out.
 */
function bodyBlocks(
  text: string,
  styles: ReturnType<typeof paragraphStyles>,
  numbering: ReturnType<typeof numberingFormats>,
  maxTableRows: number,
): DocumentBlock[] {
  const blocks: DocumentBlock[] = [];
  const paragraphs: ParagraphState[] = [];
  const tables: TableState[] = [];
  let list: { block: Extract<DocumentBlock, { type: 'list' }>; numId: string } | undefined;
  let skip = 0;
  let runs = 0;
  let inText = false;
  let tableCount = 0;

  const closeList = (): void => {
    list = undefined;
  };

  const emitParagraph = (paragraph: ParagraphState): void => {
    const content = squash(paragraph.parts.join(''));
    const style = paragraph.style === undefined ? undefined : styles.get(paragraph.style);
    const level =
      paragraph.outline !== undefined && paragraph.outline >= 0 && paragraph.outline <= 8
        ? Math.min(6, paragraph.outline + 1)
        : style?.level;
    const numId = paragraph.numId ?? style?.numbering?.numId;
    const ilvl = paragraph.numId === undefined ? (style?.numbering?.ilvl ?? 0) : paragraph.ilvl;
    if (content !== '') {
      if (level !== undefined) {
        closeList();
        blocks.push({ type: 'heading', level, text: content, location: {} });
      } else if (numId !== undefined && numId !== '0') {
        const ordered = numbering.ordered(numId, ilvl);
        if (list === undefined || (list.numId !== numId && ilvl === 0)) {
          list = { block: { type: 'list', ordered, items: [], location: {} }, numId };
          blocks.push(list.block);
        }
        list.block.items.push({ text: content, ...(ilvl > 0 ? { depth: ilvl } : {}) });
      } else {
        closeList();
        blocks.push({ type: 'paragraph', text: content, location: {} });
      }
    }
    for (const alt of paragraph.images) blocks.push({ type: 'image_ref', alt, target: null, location: {} });
  };

  streamXml(text, 'word/document.xml', {
    open(name, attributes) {
      if (skip > 0 || name === 'Fallback' || name === 'del') {
        skip++;
        return;
      }
      const paragraph = paragraphs.at(-1);
      switch (name) {
        case 'p':
          paragraphs.push({
            parts: [],
            style: undefined,
            numId: undefined,
            ilvl: 0,
            outline: undefined,
            inProperties: false,
            images: [],
          });
          break;
        case 'pPr':
          if (paragraph !== undefined) paragraph.inProperties = true;
          break;
        case 'pStyle':
          if (paragraph?.inProperties === true) paragraph.style = attributes['w:val'];
          break;
        case 'numId':
          if (paragraph?.inProperties === true) paragraph.numId = attributes['w:val'];
          break;
        case 'ilvl':
          if (paragraph?.inProperties === true) paragraph.ilvl = Number(attributes['w:val'] ?? 0) || 0;
          break;
        case 'outlineLvl':
          if (paragraph?.inProperties === true) paragraph.outline = Number(attributes['w:val']);
          break;
        case 'r':
          runs++;
          break;
        case 't':
          inText = runs > 0;
          break;
        case 'tab':
          if (runs > 0) paragraph?.parts.push('\t');
          break;
        case 'br':
        case 'cr':
          if (runs > 0) paragraph?.parts.push('\n');
          break;
        case 'noBreakHyphen':
          paragraph?.parts.push('-');
          break;
        case 'docPr':
          paragraph?.images.push(attributes['descr'] || attributes['title'] || null);
          break;
        case 'imagedata':
          paragraph?.images.push(attributes['o:title'] || null);
          break;
        case 'tbl':
          closeList();
          tables.push({ rows: [], row: undefined, cell: undefined });
          break;
        case 'tr': {
          const table = tables.at(-1);
          if (table !== undefined) table.row = [];
          break;
        }
        case 'tc': {
          const table = tables.at(-1);
          if (table !== undefined) table.cell = [];
          break;
        }
        default:
          break;
      }
    },
    text(value) {
      if (skip === 0 && inText) paragraphs.at(-1)?.parts.push(value);
    },
    close(name) {
      if (skip > 0) {
        skip--;
        return;
      }
      switch (name) {
        case 't':
          inText = false;
          break;
        case 'r':
          runs = Math.max(0, runs - 1);
          break;
        case 'pPr': {
          const paragraph = paragraphs.at(-1);
          if (paragraph !== undefined) paragraph.inProperties = false;
          break;
        }
        case 'p': {
          const paragraph = paragraphs.pop();
          if (paragraph === undefined) break;
          const table = tables.at(-1);
          if (table?.cell !== undefined) {
            const content = squash(paragraph.parts.join(''));
            if (content !== '') table.cell.push(content);
          } else emitParagraph(paragraph);
          break;
        }
        case 'tc': {
          const table = tables.at(-1);
          if (table?.cell !== undefined && table.row !== undefined) table.row.push(table.cell.join(' '));
          if (table !== undefined) table.cell = undefined;
          break;
        }
        case 'tr': {
          const table = tables.at(-1);
          if (table?.row !== undefined && table.row.some((cell) => cell !== '')) table.rows.push(table.row);
          if (table !== undefined) table.row = undefined;
          break;
        }
        case 'tbl': {
          const table = tables.pop();
          if (table === undefined || table.rows.length === 0) break;
          const outer = tables.at(-1);
          if (outer?.cell !== undefined) {
            outer.cell.push(table.rows.map((row) => row.join(' ')).join(' '));
            break;
          }
          tableCount++;
          const width = Math.max(...table.rows.map((row) => row.length));
          const square = table.rows.map((row) =>
            Array.from({ length: width }, (_unused, column) => row[column] ?? ''),
          );
          blocks.push(...cappedTable(square, maxTableRows, {}, `Table ${tableCount}`));
          break;
        }
        default:
          break;
      }
    },
  });
  return blocks;
}

/**
 * Word documents, read from the OOXML directly in one streaming pass per part (saxes): headings
 * from paragraph styles (Word's "heading N" and "Title", or an outline level), numbered and
 * bulleted lists with their levels, tables, text boxes, images as references with their
 * description (never data), then footnotes, endnotes and comments as notes. The zip is inflated
 * once under the expanded-size cap, and only its text parts.
 */
export const docxParser: ParserProvider = {
  ...REF,
  source: 'builtin',
  formats: ['docx'],
  parse: (input, context) =>
    parseSafely(REF, async () => {
      const startedAt = Date.now();
      const entries = openOoxml(input.bytes, 'docx', context.limits, (name) => TEXT_PARTS.has(name));
      if (context.signal.aborted) throw new ParseFailedError('timeout', 'The parse ran out of time.');
      const core = coreProperties(entryText(entries, 'docProps/core.xml'));
      const app = entryText(entries, 'docProps/app.xml');
      const pagesElement =
        app === undefined ? undefined : descendants(parseXml(app, 'docProps/app.xml'), 'Pages')[0];
      const pages = pagesElement === undefined ? null : Number.parseInt(textContent(pagesElement), 10);
      const blocks = bodyBlocks(
        entryText(entries, 'word/document.xml') ?? '',
        paragraphStyles(entryText(entries, 'word/styles.xml')),
        numberingFormats(entryText(entries, 'word/numbering.xml')),
        context.limits.max_table_rows,
      );
      const notes = [
        ...notesOf(entryText(entries, 'word/footnotes.xml'), 'word/footnotes.xml', 'footnote'),
        ...notesOf(entryText(entries, 'word/endnotes.xml'), 'word/endnotes.xml', 'endnote'),
      ];
      notes.forEach((note, index) =>
        blocks.push({
          type: 'paragraph',
          role: 'footnote',
          text: `[${index + 1}] ${note.text}`,
          location: {},
        }),
      );
      const comments = notesOf(entryText(entries, 'word/comments.xml'), 'word/comments.xml', 'comment');
      comments.forEach((comment, index) =>
        blocks.push({
          type: 'paragraph',
          role: 'comment',
          text: `[${index + 1}] ${comment.text}`,
          location: {},
        }),
      );
      return finishDocument({
        format: 'docx',
        parser: REF,
        blocks,
        facts: { title: core.title, author: core.author, pages: Number.isFinite(pages) ? pages : null },
        startedAt,
        maxBlocks: context.limits.max_blocks,
      });
    }),
};
