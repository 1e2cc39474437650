import type { BlockRole, DocumentBlock, ParserProvider, ParserRef } from '@youyou/contracts';
import { parse, type DefaultTreeAdapterTypes } from 'parse5';
import { finishDocument, parseSafely, squash } from '../document-builder.ts';
import { decodeTextFile } from './text.ts';

type Node = DefaultTreeAdapterTypes.Node;
type Element = DefaultTreeAdapterTypes.Element;

const REF: ParserRef = { id: 'builtin-html', version: '1.0.0', source: 'builtin' };

/** Elements whose content never reaches the text: code, styling, embedded objects, form widgets. */
const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'canvas',
  'head',
  'select',
  'textarea',
  'button',
]);
const HEADINGS: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
const CONTAINERS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'nav',
  'aside',
  'blockquote',
  'figure',
  'figcaption',
  'dl',
  'dd',
  'dt',
  'address',
  'form',
  'fieldset',
  'details',
  'summary',
  'center',
  'body',
  'html',
  'hr',
]);

function isElement(node: Node): node is Element {
  return 'tagName' in node;
}

function attr(element: Element, name: string): string | undefined {
  return element.attrs.find((attribute) => attribute.name === name)?.value;
}

/** Text of a subtree, skipping what never reaches the text and (optionally) nested lists. */
function textOf(node: Node, options: { skipLists?: boolean; skipBacklinks?: boolean } = {}): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterTypes.TextNode).value;
  if (!isElement(node) && !('childNodes' in node)) return '';
  if (isElement(node)) {
    if (SKIPPED.has(node.tagName)) return '';
    if (node.tagName === 'br') return '\n';
    if (node.tagName === 'img') return attr(node, 'alt') ?? '';
    if (options.skipLists === true && (node.tagName === 'ul' || node.tagName === 'ol')) return '';
    if (
      options.skipBacklinks === true &&
      node.tagName === 'a' &&
      (attr(node, 'href') ?? '').startsWith('#footnote-ref')
    )
      return '';
    if (
      options.skipBacklinks === true &&
      node.tagName === 'a' &&
      (attr(node, 'href') ?? '').startsWith('#endnote-ref')
    )
      return '';
    if (
      options.skipBacklinks === true &&
      node.tagName === 'a' &&
      (attr(node, 'href') ?? '').startsWith('#comment-ref')
    )
      return '';
  }
  const children = (node as Element).childNodes;
  const parts = children.map((child) => {
    const text = textOf(child, options);
    // Block-level children read as separate words.
    return isElement(child) && (CONTAINERS.has(child.tagName) || child.tagName === 'li') ? ` ${text} ` : text;
  });
  return parts.join('');
}

function squashLines(text: string): string {
  return text
    .split('\n')
    .map((line) => squash(line))
    .filter((line) => line !== '')
    .join('\n');
}

/** The role of a list whose items are all notes (`<li id="footnote-1">`, as mammoth writes them). */
function noteRole(list: Element): BlockRole | undefined {
  const items = list.childNodes.filter(
    (child): child is Element => isElement(child) && child.tagName === 'li',
  );
  if (items.length === 0) return undefined;
  const ids = items.map((item) => attr(item, 'id') ?? '');
  if (ids.every((id) => id.startsWith('footnote-') || id.startsWith('endnote-'))) return 'footnote';
  if (ids.every((id) => id.startsWith('comment-'))) return 'comment';
  return undefined;
}

/**
 * HTML → blocks: headings, paragraphs, lists (nested as depth), tables (the `<thead>` or first
 * row as header), `<pre>` as code, images as references; scripts, styles and other non-text
 * elements never reach the text. Also reads the HTML mammoth makes of a docx.
 *
 * @example
 * const { blocks, title } = htmlToBlocks('<h1>Hi</h1><script>x()</script><p>Body</p>');
 */
export function htmlToBlocks(html: string): { blocks: DocumentBlock[]; title: string | null } {
  const document = parse(html);
  const blocks: DocumentBlock[] = [];
  let inline: string[] = [];
  let title: string | null = null;
  const flush = (): void => {
    const text = squashLines(inline.join(''));
    if (text !== '') blocks.push({ type: 'paragraph', text, location: {} });
    inline = [];
  };
  const listBlock = (list: Element, role: BlockRole | undefined): void => {
    const items: { text: string; depth?: number }[] = [];
    const collect = (element: Element, depth: number): void => {
      for (const child of element.childNodes) {
        if (!isElement(child) || child.tagName !== 'li') continue;
        const text = squash(textOf(child, { skipLists: true, skipBacklinks: role !== undefined }));
        items.push({ text, ...(depth > 0 ? { depth } : {}) });
        for (const nested of child.childNodes)
          if (isElement(nested) && (nested.tagName === 'ul' || nested.tagName === 'ol'))
            collect(nested, depth + 1);
      }
    };
    collect(list, 0);
    if (role !== undefined) {
      items.forEach((item, index) =>
        blocks.push({ type: 'paragraph', role, text: `[${index + 1}] ${item.text}`, location: {} }),
      );
      return;
    }
    blocks.push({ type: 'list', ordered: list.tagName === 'ol', items, location: {} });
  };
  const tableBlock = (table: Element): void => {
    const rows: { cells: string[]; head: boolean }[] = [];
    let caption: string | undefined;
    const visit = (element: Element, inHead: boolean): void => {
      for (const child of element.childNodes) {
        if (!isElement(child)) continue;
        if (child.tagName === 'caption') caption = squash(textOf(child));
        else if (child.tagName === 'thead') visit(child, true);
        else if (child.tagName === 'tbody' || child.tagName === 'tfoot') visit(child, false);
        else if (child.tagName === 'tr') {
          const cells = child.childNodes.filter(
            (cell): cell is Element => isElement(cell) && (cell.tagName === 'td' || cell.tagName === 'th'),
          );
          rows.push({
            cells: cells.map((cell) => squash(textOf(cell))),
            head: inHead || (cells.length > 0 && cells.every((cell) => cell.tagName === 'th')),
          });
        }
      }
    };
    visit(table, false);
    const [first, ...rest] = rows;
    blocks.push({
      type: 'table',
      header: first?.cells ?? [],
      rows: rest.map((row) => row.cells),
      ...(caption === undefined || caption === '' ? {} : { caption }),
      location: {},
    });
  };
  const walk = (node: Node): void => {
    if (node.nodeName === '#text') {
      inline.push((node as DefaultTreeAdapterTypes.TextNode).value);
      return;
    }
    if (!isElement(node)) {
      if ('childNodes' in node) for (const child of (node as Element).childNodes) walk(child);
      return;
    }
    const tag = node.tagName;
    if (tag === 'head') {
      const titleElement = node.childNodes.find(
        (child): child is Element => isElement(child) && child.tagName === 'title',
      );
      if (titleElement !== undefined) title = squash(textOf(titleElement));
      return;
    }
    if (SKIPPED.has(tag)) return;
    const level = HEADINGS[tag];
    if (level !== undefined) {
      flush();
      blocks.push({ type: 'heading', level, text: squash(textOf(node)), location: {} });
    } else if (tag === 'ul' || tag === 'ol') {
      flush();
      listBlock(node, noteRole(node));
    } else if (tag === 'table') {
      flush();
      tableBlock(node);
    } else if (tag === 'pre') {
      flush();
      const code = node.childNodes.find(
        (child): child is Element => isElement(child) && child.tagName === 'code',
      );
      const className = `${attr(node, 'class') ?? ''} ${code === undefined ? '' : (attr(code, 'class') ?? '')}`;
      const language = /(?:language|lang)-([\w+#-]+)/.exec(className)?.[1] ?? null;
      blocks.push({ type: 'code', language, text: textOf(node).replace(/^\n/, '').trimEnd(), location: {} });
    } else if (tag === 'img') {
      flush();
      blocks.push({
        type: 'image_ref',
        alt: attr(node, 'alt') ?? null,
        target: attr(node, 'src') ?? null,
        location: {},
      });
    } else if (tag === 'br') {
      inline.push('\n');
    } else if (CONTAINERS.has(tag) || tag === 'li') {
      flush();
      for (const child of node.childNodes) walk(child);
      flush();
    } else {
      for (const child of node.childNodes) walk(child);
    }
  };
  walk(document);
  flush();
  return { blocks, title };
}

/** HTML pages by parse5 (the WHATWG parser jsdom uses). */
export const htmlParser: ParserProvider = {
  ...REF,
  source: 'builtin',
  formats: ['html'],
  parse: (input, context) =>
    parseSafely(REF, async () => {
      const startedAt = Date.now();
      const { decoded, warnings } = decodeTextFile(input.bytes);
      const { blocks, title } = htmlToBlocks(decoded.text);
      return finishDocument({
        format: 'html',
        parser: REF,
        blocks,
        facts: { title },
        startedAt,
        maxBlocks: context.limits.max_blocks,
        warnings,
      });
    }),
};
