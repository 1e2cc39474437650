import {
  ChunkerOptionsSchema,
  RETRIEVAL_CONTRACT_VERSION,
  type ChunkDraft,
  type ChunkLocation,
  type Chunker,
  type ChunkerOptions,
  type DocumentBlock,
} from '@youyou/contracts';

/**
 * What a chunk is built from: a sentence of a paragraph, a list item, a table's header or one row,
 * a whole code block. Only sentences may be cut further (when one alone is over `max_chars`);
 * rows and code blocks stay whole, however long.
 */
interface Unit {
  text: string;
  block: number;
  /** How it joins the unit before it from the same block. */
  join: '' | '\n';
  kind: 'sentence' | 'item' | 'header' | 'row' | 'code' | 'heading' | 'other';
  /** Rows: their table's header unit, repeated at the top of a chunk the table continues into. */
  header?: Unit;
}

// Made with the first long block: building it loads ICU's break rules (13 ms of every start).
let segmenter: Intl.Segmenter | undefined;

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll(/\r?\n/g, ' ');
}

function tableRow(cells: readonly string[]): string {
  return `| ${cells.map(cell).join(' | ')} |`;
}

function sentences(text: string, block: number, maxChars: number, kind: Unit['kind']): Unit[] {
  const units: Unit[] = [];
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'sentence' });
  for (const { segment } of segmenter.segment(text)) {
    // A "sentence" with no stop in it (a long run-on line) is cut at max_chars.
    for (let at = 0; at < segment.length; at += maxChars)
      units.push({ text: segment.slice(at, at + maxChars), block, join: '', kind });
  }
  return units;
}

function unitsOf(block: DocumentBlock, index: number, maxChars: number): Unit[] {
  switch (block.type) {
    case 'heading':
      return [{ text: block.text, block: index, join: '', kind: 'heading' }];
    case 'paragraph':
      return sentences(block.text, index, maxChars, 'sentence');
    case 'list':
      return block.items.map((item, position) => ({
        text: `${'  '.repeat(item.depth ?? 0)}${block.ordered ? `${position + 1}.` : '-'} ${item.text}`,
        block: index,
        join: '\n',
        kind: 'item',
      }));
    case 'table': {
      const units: Unit[] = [];
      let header: Unit | undefined;
      if (block.caption !== undefined)
        units.push({ text: block.caption, block: index, join: '\n', kind: 'other' });
      if (block.header.length > 0) {
        header = {
          text: `${tableRow(block.header)}\n|${block.header.map(() => ' --- |').join('')}`,
          block: index,
          join: '\n',
          kind: 'header',
        };
        units.push(header);
      }
      for (const row of block.rows)
        units.push({
          text: tableRow(row),
          block: index,
          join: '\n',
          kind: 'row',
          ...(header === undefined ? {} : { header }),
        });
      return units;
    }
    case 'code':
      return [
        {
          text: `\`\`\`${block.language ?? ''}\n${block.text}\n\`\`\``,
          block: index,
          join: '',
          kind: 'code',
        },
      ];
    case 'image_ref':
      return block.alt === null || block.alt.trim() === ''
        ? []
        : [{ text: `[image: ${block.alt}]`, block: index, join: '', kind: 'other' }];
    case 'page_break':
      return [];
    default:
      return [];
  }
}

function locationOf(block: DocumentBlock | undefined): ChunkLocation {
  const location: ChunkLocation = {};
  if (block === undefined) return location;
  if (block.location.page !== undefined) location.page = block.location.page;
  if (block.location.slide !== undefined) location.slide = block.location.slide;
  if (block.location.sheet !== undefined) location.sheet = block.location.sheet;
  return location;
}

/** A block's page, slide and sheet as one key (undefined for formats that have none). */
function placeOf(block: DocumentBlock): string | undefined {
  const { page, slide, sheet } = block.location;
  if (page === undefined && slide === undefined && sheet === undefined) return undefined;
  return `${page ?? ''}|${slide ?? ''}|${sheet ?? ''}`;
}

function joinUnits(units: readonly Unit[]): string {
  let text = '';
  let previous: Unit | undefined;
  for (const unit of units) {
    if (previous !== undefined) text += previous.block === unit.block ? unit.join : '\n\n';
    text += unit.text;
    previous = unit;
  }
  return text.trim();
}

function lengthOf(units: readonly Unit[]): number {
  let length = 0;
  for (const unit of units) length += unit.text.length + 2;
  return length;
}

/**
 * The built-in chunker (spec §4.12): structure-aware over `ParsedDocument` blocks. A heading starts
 * a new chunk and goes on its heading path, and so does a new page, slide or sheet (a citation
 * names the chunk's one place); paragraphs are cut between sentences (Intl.Segmenter,
 * so Chinese 。！？ count), lists between items, tables between rows (a table continued in the next
 * chunk repeats its header row), and a code block is never cut. Each chunk after the first of a
 * section repeats the last sentences of the one before, up to `overlap_chars`.
 *
 * @example
 * const chunks = blockChunker.chunk(parsed.blocks, { target_chars: 800 });
 * chunks[0].heading_path; // ['Annual report', 'Revenue']
 */
export const blockChunker: Chunker<DocumentBlock> = {
  id: 'builtin-blocks',
  chunk(blocks, overrides = {}) {
    const options: ChunkerOptions = ChunkerOptionsSchema.parse(overrides);
    const target = Math.min(options.target_chars, options.max_chars);
    const drafts: ChunkDraft[] = [];
    const headings: string[] = [];
    /** The units of the chunk being built; the first `carried` of them repeat the previous chunk. */
    let current: Unit[] = [];
    let carried = 0;
    let path: string[] = [];

    const flush = (withOverlap: boolean): void => {
      const own = current.slice(carried);
      if (own.length === 0 || own.every((unit) => unit.kind === 'heading')) {
        if (!withOverlap) {
          current = own;
          carried = 0;
        }
        return;
      }
      const first = current[0] as Unit;
      const last = current[current.length - 1] as Unit;
      drafts.push({
        version: RETRIEVAL_CONTRACT_VERSION,
        ordinal: drafts.length,
        text: joinUnits(current),
        heading_path: [...path],
        location: locationOf(blocks[(own.find((unit) => unit.kind !== 'heading') ?? first).block]),
        block_start: first.block,
        block_end: last.block,
      });
      const next: Unit[] = [];
      if (withOverlap) {
        // Carry whole sentences or items from the end, never a row or a code block.
        let size = 0;
        for (let index = current.length - 1; index >= carried; index -= 1) {
          const unit = current[index] as Unit;
          if (unit.kind !== 'sentence' && unit.kind !== 'item') break;
          if (size + unit.text.length > options.overlap_chars) break;
          size += unit.text.length;
          next.unshift(unit);
        }
      }
      current = next;
      carried = next.length;
    };

    /** Where the chunk being built is: a chunk never spans two pages, slides or sheets. */
    let place: string | undefined;
    blocks.forEach((block, index) => {
      const blockPlace = placeOf(block);
      if (blockPlace !== place) {
        // Its citation names one place: no overlap is carried from the other.
        flush(false);
        place = blockPlace;
      }
      if (block.type === 'heading') {
        flush(false);
        headings.length = Math.min(headings.length, block.level - 1);
        while (headings.length < block.level - 1) headings.push('');
        headings.push(block.text.trim());
        if (current.length === 0) path = headings.filter((heading) => heading !== '');
      }
      for (const unit of unitsOf(block, index, options.max_chars)) {
        if (current.slice(carried).every((existing) => existing.kind === 'heading'))
          path = headings.filter((heading) => heading !== '');
        const added = unit.text.length + 2;
        const ownUnits = current.length - carried;
        if (ownUnits > 0 && lengthOf(current) + added > target) {
          const onlyHeadings = current.slice(carried).every((existing) => existing.kind === 'heading');
          if (!onlyHeadings) {
            flush(true);
            // A table continued into this chunk repeats its header row (not carried text).
            if (unit.kind === 'row' && unit.header !== undefined) {
              current = [unit.header];
              carried = 1;
            }
          }
        }
        current.push(unit);
      }
    });
    flush(false);
    return drafts;
  },
};
