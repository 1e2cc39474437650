import type { DocumentBlock, ParserProvider, ParserRef } from '@youyou/contracts';
import { getDocumentProxy, getResolvedPDFJS } from 'unpdf';
import { finishDocument, ParseFailedError, parseSafely } from '../document-builder.ts';

const REF: ParserRef = { id: 'builtin-pdf', version: '1.0.0+pdfjs.5', source: 'builtin' };

interface Item {
  str: string;
  x: number;
  y: number;
  width: number;
  size: number;
  hasEOL: boolean;
}

interface Line {
  text: string;
  y: number;
  size: number;
}

interface Paragraph {
  text: string;
  size: number;
  page: number;
}

const CJK_END =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]$/u;
const CJK_START =
  /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;

function joinWords(left: string, right: string): string {
  if (left === '' || right === '') return left + right;
  if (/\s$/.test(left) || /^\s/.test(right)) return left + right;
  if (CJK_END.test(left) || CJK_START.test(right)) return left + right;
  if (left.endsWith('-')) return left.slice(0, -1) + right;
  return `${left} ${right}`;
}

/** Items → lines: grouped by baseline, top to bottom, each line left to right. */
function linesOf(items: Item[]): Line[] {
  const groups: Item[][] = [];
  for (const item of items) {
    const group = groups.find((candidate) => {
      const first = candidate[0] as Item;
      return Math.abs(first.y - item.y) <= Math.max(1, Math.min(first.size, item.size) * 0.4);
    });
    if (group === undefined) groups.push([item]);
    else group.push(item);
  }
  return groups
    .map((group) => {
      group.sort((a, b) => a.x - b.x);
      let text = '';
      let end = Number.NEGATIVE_INFINITY;
      for (const item of group) {
        const gap = item.x - end;
        text =
          gap > item.size * 0.15 && end !== Number.NEGATIVE_INFINITY
            ? joinWords(text, item.str)
            : text + item.str;
        end = item.x + item.width;
      }
      const size = Math.max(...group.map((item) => item.size));
      return { text: text.replace(/\s+/g, ' ').trim(), y: (group[0] as Item).y, size };
    })
    .filter((line) => line.text !== '')
    .sort((a, b) => b.y - a.y);
}

/** Lines → paragraphs: a new one at a font-size change or a gap wider than 1.7 lines. */
function paragraphsOf(lines: Line[], page: number): Paragraph[] {
  const out: Paragraph[] = [];
  let previous: Line | undefined;
  for (const line of lines) {
    const last = out.at(-1);
    const sameSize = previous !== undefined && Math.abs(previous.size - line.size) < 0.5;
    const near = previous !== undefined && previous.y - line.y <= line.size * 1.7;
    if (last !== undefined && sameSize && near) last.text = joinWords(last.text, line.text);
    else out.push({ text: line.text, size: line.size, page });
    previous = line;
  }
  return out;
}

/** Paragraphs in clearly larger type than the body become headings, the largest size level 1. */
function classify(paragraphs: Paragraph[]): DocumentBlock[] {
  const weights = new Map<number, number>();
  for (const paragraph of paragraphs) {
    const size = Math.round(paragraph.size * 2) / 2;
    weights.set(size, (weights.get(size) ?? 0) + paragraph.text.length);
  }
  const body = [...weights.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
  const headingSizes = [...weights.keys()].filter((size) => size >= body * 1.2).sort((a, b) => b - a);
  const blocks: DocumentBlock[] = [];
  let page = paragraphs[0]?.page ?? 1;
  for (const paragraph of paragraphs) {
    if (paragraph.page !== page) {
      blocks.push({ type: 'page_break', location: { page } });
      page = paragraph.page;
    }
    const size = Math.round(paragraph.size * 2) / 2;
    const rank = headingSizes.indexOf(size);
    const location = { page: paragraph.page };
    if (rank >= 0 && paragraph.text.length <= 200)
      blocks.push({ type: 'heading', level: Math.min(6, rank + 1), text: paragraph.text, location });
    else blocks.push({ type: 'paragraph', text: paragraph.text, location });
  }
  return blocks;
}

/**
 * pdf.js 5 inflates every content stream through a web `DecompressionStream` when there is one:
 * in Node that is a zlib handle, a thread-pool round trip and a web-stream pipe per stream, ~20%
 * of the CPU time of a 200-page parse (decision 0057). Without the global, pdf.js inflates with
 * its own synchronous decoder (its fallback for engines without one): the same bytes out.
 * Hidden only while PDFs are parsed in this thread, counted so that overlapping parses put it
 * back once, as the same property it was. Parses run in the parse worker threads, where nothing
 * else uses it; the repository's other code does not use it either.
 */
let hiding = 0;
let hidden: PropertyDescriptor | undefined;

async function withoutDecompressionStream<T>(body: () => Promise<T>): Promise<T> {
  if (hiding++ === 0) {
    hidden = Object.getOwnPropertyDescriptor(globalThis, 'DecompressionStream');
    Reflect.deleteProperty(globalThis, 'DecompressionStream');
  }
  try {
    return await body();
  } finally {
    if (--hiding === 0 && hidden !== undefined)
      Object.defineProperty(globalThis, 'DecompressionStream', hidden);
  }
}

function hasPdfHeader(bytes: Uint8Array): boolean {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  return head.includes('%PDF-');
}

/**
 * PDFs by pdf.js (through unpdf): the text layer page by page, items grouped into lines by
 * baseline and sorted top to bottom, left to right; lines into paragraphs; larger type into
 * headings; a page break between pages; each block with its page. A PDF with pages but no text
 * fails `no_text_layer` when its pages hold images (a scan), `empty` otherwise; a password
 * fails `encrypted`; bytes pdf.js cannot read fail `corrupt`.
 */
export const pdfParser: ParserProvider = {
  ...REF,
  source: 'builtin',
  formats: ['pdf'],
  parse: (input, context) =>
    parseSafely(REF, () =>
      withoutDecompressionStream(async () => {
        const startedAt = Date.now();
        if (!hasPdfHeader(input.bytes))
          throw new ParseFailedError('wrong_type', 'The file is not a PDF (it has no %PDF header).');
        let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
        try {
          // pdf.js takes ownership of the buffer it is given: hand it a copy.
          pdf = await getDocumentProxy(new Uint8Array(input.bytes), { verbosity: 0 });
        } catch (error) {
          const name = error instanceof Error ? error.name : '';
          if (name === 'PasswordException')
            throw new ParseFailedError(
              'encrypted',
              'The PDF is protected with a password; remove the password and upload it again.',
            );
          throw new ParseFailedError(
            'corrupt',
            `pdf.js could not open the file: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
        try {
          const paragraphs: Paragraph[] = [];
          const warnings: string[] = [];
          const emptyPages: number[] = [];
          for (let number = 1; number <= pdf.numPages; number++) {
            if (context.signal.aborted) throw new ParseFailedError('timeout', 'The parse ran out of time.');
            context.progress((number - 1) / pdf.numPages, `page ${number} of ${pdf.numPages}`);
            const page = await pdf.getPage(number);
            const content = await page.getTextContent();
            const items: Item[] = [];
            for (const item of content.items) {
              if (!('str' in item)) continue;
              const [a, b, , d, x, y] = item.transform as number[];
              const size = Math.max(Math.hypot(a ?? 0, b ?? 0), Math.abs(d ?? 0), item.height);
              items.push({
                str: item.str,
                x: x ?? 0,
                y: y ?? 0,
                width: item.width,
                size,
                hasEOL: item.hasEOL,
              });
            }
            const pageParagraphs = paragraphsOf(linesOf(items), number);
            if (pageParagraphs.length === 0) emptyPages.push(number);
            paragraphs.push(...pageParagraphs);
            page.cleanup();
          }
          if (paragraphs.length === 0) {
            if (await hasImages(pdf))
              throw new ParseFailedError(
                'no_text_layer',
                'The PDF has no text layer: its pages are images (a scan). Text recognition (OCR) or the external parsing service can read it.',
                { pages: pdf.numPages },
              );
            throw new ParseFailedError('empty', 'The PDF holds no text.', { pages: pdf.numPages });
          }
          if (emptyPages.length > 0)
            warnings.push(
              `No text on page${emptyPages.length > 1 ? 's' : ''} ${emptyPages.slice(0, 20).join(', ')} (images only?).`,
            );
          const { info } = await pdf.getMetadata().catch(() => ({ info: {} as Record<string, unknown> }));
          const facts = info as { Title?: unknown; Author?: unknown };
          return finishDocument({
            format: 'pdf',
            parser: REF,
            blocks: classify(paragraphs),
            facts: {
              title: typeof facts.Title === 'string' ? facts.Title : null,
              author: typeof facts.Author === 'string' ? facts.Author : null,
              pages: pdf.numPages,
            },
            startedAt,
            maxBlocks: context.limits.max_blocks,
            warnings,
            confidence: emptyPages.length > 0 ? 0.8 : 1,
          });
        } finally {
          await pdf.loadingTask.destroy();
        }
      }),
    ),
};

async function hasImages(pdf: Awaited<ReturnType<typeof getDocumentProxy>>): Promise<boolean> {
  const { OPS } = await getResolvedPDFJS();
  const imageOps = new Set<number>([
    OPS.paintImageXObject,
    OPS.paintInlineImageXObject,
    OPS.paintImageMaskXObject,
  ]);
  for (let number = 1; number <= Math.min(pdf.numPages, 20); number++) {
    const page = await pdf.getPage(number);
    const operators = await page.getOperatorList();
    if (operators.fnArray.some((op) => imageOps.has(op))) return true;
  }
  return false;
}
