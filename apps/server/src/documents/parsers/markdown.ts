import type { DocumentBlock, ParserProvider, ParserRef } from '@youyou/contracts';
import type { Nodes, RootContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { finishDocument, parseSafely, squash } from '../document-builder.ts';
import { decodeTextFile } from './text.ts';

const REF: ParserRef = { id: 'builtin-md', version: '1.0.0', source: 'builtin' };

/** The text of inline markdown: link and emphasis text kept, images as their alt. */
function inlineText(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string') return node.type === 'html' ? '' : node.value;
  if (node.type === 'image') return node.alt ?? '';
  if (node.type === 'break') return '\n';
  if ('children' in node) return (node.children as Nodes[]).map(inlineText).join('');
  return '';
}

function lineOf(node: RootContent): { line?: number } {
  const line = node.position?.start.line;
  return line === undefined ? {} : { line };
}

function listItems(
  node: Extract<RootContent, { type: 'list' }>,
  depth: number,
  out: { text: string; depth?: number }[],
): void {
  for (const item of node.children) {
    const own = item.children.filter((child) => child.type !== 'list');
    const prefix = item.checked === true ? '[x] ' : item.checked === false ? '[ ] ' : '';
    out.push({ text: prefix + squash(own.map(inlineText).join(' ')), ...(depth > 0 ? { depth } : {}) });
    for (const child of item.children) if (child.type === 'list') listItems(child, depth + 1, out);
  }
}

function toBlocks(nodes: readonly RootContent[], blocks: DocumentBlock[]): void {
  for (const node of nodes) {
    const location = lineOf(node);
    switch (node.type) {
      case 'heading':
        blocks.push({ type: 'heading', level: node.depth, text: squash(inlineText(node)), location });
        break;
      case 'paragraph': {
        const only = node.children.length === 1 ? node.children[0] : undefined;
        if (only?.type === 'image') {
          blocks.push({ type: 'image_ref', alt: only.alt ?? null, target: only.url, location });
        } else {
          blocks.push({ type: 'paragraph', text: inlineText(node).trim(), location });
        }
        break;
      }
      case 'list': {
        const items: { text: string; depth?: number }[] = [];
        listItems(node, 0, items);
        blocks.push({ type: 'list', ordered: node.ordered === true, items, location });
        break;
      }
      case 'table': {
        const [head, ...rows] = node.children.map((row) =>
          row.children.map((cell) => squash(inlineText(cell))),
        );
        blocks.push({ type: 'table', header: head ?? [], rows, location });
        break;
      }
      case 'code':
        blocks.push({ type: 'code', language: node.lang ?? null, text: node.value, location });
        break;
      case 'blockquote':
        toBlocks(node.children, blocks);
        break;
      case 'footnoteDefinition': {
        const text = squash(node.children.map(inlineText).join(' '));
        blocks.push({
          type: 'paragraph',
          role: 'footnote',
          text: `[${node.label ?? node.identifier}] ${text}`,
          location,
        });
        break;
      }
      default:
        break;
    }
  }
}

/** Markdown (CommonMark + GFM tables, task lists, footnotes) by micromark/mdast, the remark parser. */
export const markdownParser: ParserProvider = {
  ...REF,
  source: 'builtin',
  formats: ['md'],
  parse: (input, context) =>
    parseSafely(REF, async () => {
      const startedAt = Date.now();
      const { decoded, warnings } = decodeTextFile(input.bytes);
      const tree = fromMarkdown(decoded.text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
      const blocks: DocumentBlock[] = [];
      toBlocks(tree.children, blocks);
      return finishDocument({
        format: 'md',
        parser: REF,
        blocks,
        facts: {},
        startedAt,
        maxBlocks: context.limits.max_blocks,
        warnings,
      });
    }),
};
