import type { DocumentBlock, ParserProvider, ParserRef } from '@youyou/contracts';
import { finishDocument, ParseFailedError, parseSafely, squash } from '../document-builder.ts';
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
  type XmlElement,
} from '../xml.ts';
import { openOoxml } from './ooxml.ts';

const REF: ParserRef = { id: 'builtin-pptx', version: '1.1.0', source: 'builtin' };

const TITLE_TYPES = new Set(['title', 'ctrTitle']);

function placeholderType(shape: XmlElement): string | undefined {
  const nv = firstChild(shape, 'nvSpPr');
  const ph = nv === undefined ? undefined : descendants(nv, 'ph')[0];
  if (ph === undefined) return undefined;
  return attribute(ph, 'type') ?? 'body';
}

interface Paragraph {
  text: string;
  depth: number;
  bullet: 'none' | 'char' | 'number' | 'inherit';
}

function paragraphsOf(body: XmlElement): Paragraph[] {
  return childElements(body, 'p').map((p) => {
    const properties = firstChild(p, 'pPr');
    const level = properties === undefined ? 0 : Number.parseInt(attribute(properties, 'lvl') ?? '0', 10);
    let bullet: Paragraph['bullet'] = 'inherit';
    if (properties !== undefined) {
      if (firstChild(properties, 'buNone') !== undefined) bullet = 'none';
      else if (firstChild(properties, 'buAutoNum') !== undefined) bullet = 'number';
      else if (firstChild(properties, 'buChar') !== undefined) bullet = 'char';
    }
    const text = childElements(p)
      .map((run) =>
        run.localName === 'br' ? '\n' : run.localName === 'r' || run.localName === 'fld' ? textOf(run) : '',
      )
      .join('');
    return { text: squash(text), depth: Number.isFinite(level) ? level : 0, bullet };
  });
}

/** The blocks of one text body: a list when its paragraphs are bulleted, else paragraphs. */
function bodyBlocks(
  paragraphs: Paragraph[],
  placeholder: string | undefined,
  slide: number,
): DocumentBlock[] {
  const texts = paragraphs.filter((paragraph) => paragraph.text !== '');
  if (texts.length === 0) return [];
  const location = { slide };
  // Body placeholders inherit bullets from the layout; free text boxes do not.
  const bulleted = texts.some(
    (paragraph) =>
      paragraph.bullet === 'char' ||
      paragraph.bullet === 'number' ||
      (paragraph.bullet === 'inherit' &&
        (placeholder === 'body' || placeholder === 'obj') &&
        texts.length > 1),
  );
  if (!bulleted) return texts.map((paragraph) => ({ type: 'paragraph', text: paragraph.text, location }));
  return [
    {
      type: 'list',
      ordered: texts.every((paragraph) => paragraph.bullet === 'number'),
      items: texts.map((paragraph) => ({
        text: paragraph.text,
        ...(paragraph.depth > 0 ? { depth: paragraph.depth } : {}),
      })),
      location,
    },
  ];
}

function tableBlock(table: XmlElement, slide: number): DocumentBlock {
  const rows = childElements(table, 'tr').map((row) =>
    childElements(row, 'tc').map((cell) =>
      squash(
        paragraphsOf(firstChild(cell, 'txBody') ?? cell)
          .map((p) => p.text)
          .join(' '),
      ),
    ),
  );
  const [header, ...rest] = rows;
  return { type: 'table', header: header ?? [], rows: rest, location: { slide } };
}

/** Shapes in reading order: top to bottom, then left to right (by their offsets). */
function orderShapes(shapes: XmlElement[]): XmlElement[] {
  const position = (shape: XmlElement): [number, number] => {
    const off = descendants(shape, 'off')[0];
    if (off === undefined) return [Number.MAX_SAFE_INTEGER, 0];
    return [Number(attribute(off, 'y') ?? 0), Number(attribute(off, 'x') ?? 0)];
  };
  const titled = (shape: XmlElement): boolean =>
    shape.localName === 'sp' && TITLE_TYPES.has(placeholderType(shape) ?? '');
  return shapes
    .map((shape, index) => ({ shape, index, at: position(shape) }))
    .sort((a, b) => {
      if (titled(a.shape) !== titled(b.shape)) return titled(a.shape) ? -1 : 1;
      // Rows of shapes within ~0.1 inch count as one line.
      if (Math.abs(a.at[0] - b.at[0]) > 91_440) return a.at[0] - b.at[0];
      return a.at[1] - b.at[1] || a.index - b.index;
    })
    .map((entry) => entry.shape);
}

/** The largest font size (hundredths of a point) a text body sets, 0 when it sets none. */
function largestSize(body: XmlElement): number {
  let largest = 0;
  for (const name of ['rPr', 'defRPr', 'endParaRPr']) {
    for (const properties of descendants(body, name)) {
      const size = Number.parseInt(attribute(properties, 'sz') ?? '', 10);
      if (Number.isFinite(size) && size > largest) largest = size;
    }
  }
  return largest;
}

/**
 * The text shape that titles a slide without a title placeholder (pptxgenjs decks, many real
 * ones): the one set in the largest type, or the first in reading order when none sets a size.
 */
function fallbackTitle(shapes: readonly XmlElement[]): XmlElement | undefined {
  let chosen: XmlElement | undefined;
  let chosenSize = -1;
  for (const shape of shapes) {
    if (shape.localName !== 'sp') continue;
    const body = firstChild(shape, 'txBody');
    if (body === undefined || paragraphsOf(body).every((paragraph) => paragraph.text === '')) continue;
    const size = largestSize(body);
    if (size > chosenSize) {
      chosen = shape;
      chosenSize = size;
    }
  }
  return chosen;
}

function shapeBlocks(tree: XmlElement, slide: number, out: DocumentBlock[], titled: boolean): void {
  const shapes = orderShapes(childElements(tree));
  const title = titled ? undefined : fallbackTitle(shapes);
  if (title !== undefined) {
    // The title leads the slide; a multi-line title box keeps its other lines as body text.
    const [first, ...rest] = paragraphsOf(firstChild(title, 'txBody') as XmlElement).filter(
      (paragraph) => paragraph.text !== '',
    );
    out.push({ type: 'heading', level: 2, text: (first as Paragraph).text, location: { slide } });
    out.push(...bodyBlocks(rest, placeholderType(title), slide));
  }
  for (const shape of shapes) {
    if (shape === title) continue;
    switch (shape.localName) {
      case 'sp': {
        const body = firstChild(shape, 'txBody');
        if (body === undefined) break;
        const type = placeholderType(shape);
        const paragraphs = paragraphsOf(body);
        if (type !== undefined && TITLE_TYPES.has(type)) {
          const text = squash(paragraphs.map((paragraph) => paragraph.text).join(' '));
          if (text !== '') out.push({ type: 'heading', level: 2, text, location: { slide } });
        } else {
          out.push(...bodyBlocks(paragraphs, type, slide));
        }
        break;
      }
      case 'graphicFrame': {
        for (const table of descendants(shape, 'tbl')) out.push(tableBlock(table, slide));
        break;
      }
      case 'pic': {
        const properties = descendants(shape, 'cNvPr')[0];
        const alt =
          properties === undefined
            ? undefined
            : (attribute(properties, 'descr') ?? attribute(properties, 'name'));
        out.push({ type: 'image_ref', alt: alt ?? null, target: null, location: { slide } });
        break;
      }
      case 'grpSp':
        // A group's texts are read in place; the slide's title was already chosen.
        shapeBlocks(shape, slide, out, true);
        break;
      default:
        break;
    }
  }
}

/** Whether a slide has a title placeholder with text (then no other shape is taken for its title). */
function hasTitlePlaceholder(tree: XmlElement): boolean {
  return descendants(tree, 'sp').some((shape) => {
    if (!TITLE_TYPES.has(placeholderType(shape) ?? '')) return false;
    const body = firstChild(shape, 'txBody');
    return body !== undefined && paragraphsOf(body).some((paragraph) => paragraph.text !== '');
  });
}

/**
 * Every text of a notes slide, in reading order: the notes placeholder and any text box beside
 * it. The slide-number placeholder is left out (it only repeats the slide's number).
 */
function notesLines(root: XmlElement): string[] {
  const tree = descendants(root, 'spTree')[0];
  if (tree === undefined) return [];
  const lines: string[] = [];
  const walk = (group: XmlElement): void => {
    for (const shape of orderShapes(childElements(group))) {
      if (shape.localName === 'grpSp') walk(shape);
      if (shape.localName !== 'sp' || placeholderType(shape) === 'sldNum') continue;
      const body = firstChild(shape, 'txBody');
      if (body === undefined) continue;
      for (const paragraph of paragraphsOf(body)) if (paragraph.text !== '') lines.push(paragraph.text);
    }
  };
  walk(tree);
  return lines;
}

/**
 * PowerPoint decks, read from the OOXML directly: slides in presentation order, each slide's
 * title (its title placeholder, else its largest or first text) as a level-2 heading, text boxes as paragraphs or (bulleted) lists with their levels,
 * tables, pictures as references, then every text of the notes slide as a `speaker_notes` paragraph.
 */
export const pptxParser: ParserProvider = {
  ...REF,
  source: 'builtin',
  formats: ['pptx'],
  parse: (input, context) =>
    parseSafely(REF, async () => {
      const startedAt = Date.now();
      const entries = openOoxml(
        input.bytes,
        'pptx',
        context.limits,
        (name) => name.endsWith('.xml') || name.endsWith('.rels'),
      );
      const presentation = parseXml(entryText(entries, 'ppt/presentation.xml') ?? '', 'ppt/presentation.xml');
      const rels = relationships(entryText(entries, 'ppt/_rels/presentation.xml.rels'), 'ppt');
      const slidePaths = descendants(presentation, 'sldId')
        .map((slide) => rels.get(relationshipId(slide) ?? '')?.target)
        .filter((target): target is string => target !== undefined);
      const blocks: DocumentBlock[] = [];
      for (const [index, path] of slidePaths.entries()) {
        if (context.signal.aborted) throw new ParseFailedError('timeout', 'The parse ran out of time.');
        context.progress(index / slidePaths.length, `slide ${index + 1} of ${slidePaths.length}`);
        const text = entryText(entries, path);
        if (text === undefined) continue;
        const slide = index + 1;
        const root = parseXml(text, path);
        const tree = descendants(root, 'spTree')[0];
        if (tree !== undefined) shapeBlocks(tree, slide, blocks, hasTitlePlaceholder(tree));
        const dir = path.slice(0, path.lastIndexOf('/'));
        const slideRels = relationships(
          entryText(entries, `${dir}/_rels/${path.slice(dir.length + 1)}.rels`),
          dir,
        );
        const notesPath = [...slideRels.values()].find((rel) => rel.type.endsWith('/notesSlide'))?.target;
        const notesText = notesPath === undefined ? undefined : entryText(entries, notesPath);
        if (notesPath !== undefined && notesText !== undefined) {
          const notes = notesLines(parseXml(notesText, notesPath));
          if (notes.length > 0)
            blocks.push({
              type: 'paragraph',
              role: 'speaker_notes',
              text: notes.join('\n'),
              location: { slide },
            });
        }
      }
      const core = coreProperties(entryText(entries, 'docProps/core.xml'));
      const firstTitle = blocks.find((block) => block.type === 'heading');
      return finishDocument({
        format: 'pptx',
        parser: REF,
        blocks,
        facts: {
          title: core.title ?? (firstTitle?.type === 'heading' ? firstTitle.text : null),
          author: core.author,
          slides: slidePaths.length,
        },
        startedAt,
        maxBlocks: context.limits.max_blocks,
      });
    }),
};
