import { streamXml } from './sax.ts';

/** What a paragraph style says about its paragraphs: a heading level, a list it numbers. */
export interface ParagraphStyle {
  level: number | undefined;
  numbering: { numId: string; ilvl: number } | undefined;
}

interface RawStyle {
  name: string | undefined;
  basedOn: string | undefined;
  outline: number | undefined;
  numId: string | undefined;
  ilvl: number | undefined;
}

const HEADING_NAME = /^heading\s*([1-9])$/i;

/**
 * Paragraph styles by id from `word/styles.xml`: a style named "heading N" (Word's built-in names,
 * whatever the display language), "Title", or one with an outline level is a heading; a style may
 * number its paragraphs. `basedOn` chains are followed.
 *
 * @example
 * paragraphStyles(stylesXml).get('Heading1')?.level; // 1
 */
export function paragraphStyles(text: string | undefined): Map<string, ParagraphStyle> {
  const raw = new Map<string, RawStyle>();
  if (text !== undefined) {
    let current: RawStyle | undefined;
    let inParagraphProperties = false;
    streamXml(text, 'word/styles.xml', {
      open(name, attributes) {
        if (name === 'style') {
          current =
            attributes['w:type'] === 'paragraph'
              ? { name: undefined, basedOn: undefined, outline: undefined, numId: undefined, ilvl: undefined }
              : undefined;
          if (current !== undefined) raw.set(attributes['w:styleId'] ?? '', current);
        } else if (current === undefined) return;
        else if (name === 'name') current.name = attributes['w:val'];
        else if (name === 'basedOn') current.basedOn = attributes['w:val'];
        else if (name === 'pPr') inParagraphProperties = true;
        else if (inParagraphProperties && name === 'outlineLvl')
          current.outline = Number(attributes['w:val']);
        else if (inParagraphProperties && name === 'numId') current.numId = attributes['w:val'];
        else if (inParagraphProperties && name === 'ilvl') current.ilvl = Number(attributes['w:val']);
      },
      text() {},
      close(name) {
        if (name === 'style') current = undefined;
        else if (name === 'pPr') inParagraphProperties = false;
      },
    });
  }
  const resolved = new Map<string, ParagraphStyle>();
  for (const id of raw.keys()) {
    let level: number | undefined;
    let numbering: ParagraphStyle['numbering'];
    let style = raw.get(id);
    for (let depth = 0; style !== undefined && depth < 10; depth++) {
      if (level === undefined) {
        const named = HEADING_NAME.exec(style.name ?? '');
        if (named !== null) level = Number(named[1]);
        else if (/^title$/i.test(style.name ?? '')) level = 1;
        else if (style.outline !== undefined && style.outline >= 0 && style.outline <= 8)
          level = style.outline + 1;
      }
      if (numbering === undefined && style.numId !== undefined && style.numId !== '0')
        numbering = { numId: style.numId, ilvl: style.ilvl ?? 0 };
      style = style.basedOn === undefined ? undefined : raw.get(style.basedOn);
    }
    resolved.set(id, { level: level === undefined ? undefined : Math.min(6, level), numbering });
  }
  return resolved;
}

/**
 * Which numbering instances count (decimal, letters, roman …) rather than bullet, per level, from
 * `word/numbering.xml`: `ordered(numId, ilvl)`.
 *
 * @example
 * numberingFormats(numberingXml).ordered('2', 0); // true
 */
export function numberingFormats(text: string | undefined): {
  ordered(numId: string, ilvl: number): boolean;
} {
  const abstractFormats = new Map<string, Map<number, string>>();
  const instances = new Map<string, string>();
  if (text !== undefined) {
    let abstract: Map<number, string> | undefined;
    let level: number | undefined;
    let instance: string | undefined;
    streamXml(text, 'word/numbering.xml', {
      open(name, attributes) {
        if (name === 'abstractNum') {
          abstract = new Map();
          abstractFormats.set(attributes['w:abstractNumId'] ?? '', abstract);
        } else if (name === 'lvl' && abstract !== undefined) level = Number(attributes['w:ilvl'] ?? 0);
        else if (name === 'numFmt' && abstract !== undefined && level !== undefined)
          abstract.set(level, attributes['w:val'] ?? 'decimal');
        else if (name === 'num') instance = attributes['w:numId'];
        else if (name === 'abstractNumId' && instance !== undefined)
          instances.set(instance, attributes['w:val'] ?? '');
      },
      text() {},
      close(name) {
        if (name === 'abstractNum') abstract = undefined;
        else if (name === 'lvl') level = undefined;
        else if (name === 'num') instance = undefined;
      },
    });
  }
  return {
    ordered(numId, ilvl) {
      const formats = abstractFormats.get(instances.get(numId) ?? '');
      const format = formats?.get(ilvl) ?? formats?.get(0) ?? 'bullet';
      return format !== 'bullet' && format !== 'none';
    },
  };
}

/**
 * The notes of a notes part (`word/footnotes.xml`, `endnotes.xml`, `comments.xml`): each note's
 * id and its paragraphs' text, separators left out.
 *
 * @example
 * notesOf(footnotesXml, 'word/footnotes.xml', 'footnote'); // [{ id: '1', text: 'Source: …' }]
 */
export function notesOf(
  text: string | undefined,
  part: string,
  element: 'footnote' | 'endnote' | 'comment',
): { id: string; text: string }[] {
  if (text === undefined) return [];
  const notes: { id: string; text: string }[] = [];
  let current: { id: string; paragraphs: string[] } | undefined;
  let paragraph: string[] | undefined;
  let inText = false;
  streamXml(text, part, {
    open(name, attributes) {
      if (name === element) {
        const type = attributes['w:type'];
        current =
          type === 'separator' || type === 'continuationSeparator' || type === 'continuationNotice'
            ? undefined
            : { id: attributes['w:id'] ?? '', paragraphs: [] };
      } else if (current === undefined) return;
      else if (name === 'p') paragraph = [];
      else if (name === 't') inText = true;
      else if (name === 'tab') paragraph?.push('\t');
      else if (name === 'br' || name === 'cr') paragraph?.push('\n');
    },
    text(value) {
      if (inText) paragraph?.push(value);
    },
    close(name) {
      if (name === 't') inText = false;
      else if (name === 'p' && current !== undefined && paragraph !== undefined) {
        current.paragraphs.push(paragraph.join(''));
        paragraph = undefined;
      } else if (name === element && current !== undefined) {
        const joined = current.paragraphs
          .map((line) => line.trim())
          .filter((line) => line !== '')
          .join('\n');
        if (joined !== '') notes.push({ id: current.id, text: joined });
        current = undefined;
      }
    },
  });
  return notes;
}
