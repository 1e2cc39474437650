import type { DocumentBlock, ParserProvider, ParserRef } from '@youyou/contracts';
import type { Token, Tokens } from 'marked';
import { finishDocument, parseSafely, squash } from '../document-builder.ts';
import { decodeTextFile } from './text.ts';

const REF: ParserRef = { id: 'builtin-md', version: '2.0.0+marked.16', source: 'builtin' };

/** The text of inline tokens: link and emphasis text kept, images as their alt, raw HTML dropped. */
function inlineText(tokens: readonly Token[] | undefined): string {
  if (tokens === undefined) return '';
  return tokens
    .map((token): string => {
      switch (token.type) {
        case 'html':
          return '';
        case 'br':
          return '\n';
        case 'image':
          return (token as Tokens.Image).text;
        case 'codespan':
        case 'escape':
          return token.text as string;
        default:
          if ('tokens' in token && Array.isArray(token.tokens)) return inlineText(token.tokens);
          return 'text' in token && typeof token.text === 'string' ? token.text : '';
      }
    })
    .join('');
}

function listItems(list: Tokens.List, depth: number, out: { text: string; depth?: number }[]): void {
  for (const item of list.items) {
    const own = item.tokens.filter((token) => token.type !== 'list');
    const prefix = item.task ? (item.checked === true ? '[x] ' : '[ ] ') : '';
    const text = own
      .map((token) => ('tokens' in token ? inlineText(token.tokens) : (token.raw ?? '')))
      .join(' ');
    out.push({ text: prefix + squash(text), ...(depth > 0 ? { depth } : {}) });
    for (const token of item.tokens)
      if (token.type === 'list') listItems(token as Tokens.List, depth + 1, out);
  }
}

function toBlocks(tokens: readonly Token[], startLine: number, blocks: DocumentBlock[]): void {
  let line = startLine;
  for (const token of tokens) {
    const location = { line };
    switch (token.type) {
      case 'heading': {
        const heading = token as Tokens.Heading;
        blocks.push({
          type: 'heading',
          level: heading.depth,
          text: squash(inlineText(heading.tokens)),
          location,
        });
        break;
      }
      case 'paragraph': {
        const paragraph = token as Tokens.Paragraph;
        const only = paragraph.tokens.length === 1 ? paragraph.tokens[0] : undefined;
        if (only?.type === 'image') {
          const image = only as Tokens.Image;
          blocks.push({
            type: 'image_ref',
            alt: image.text === '' ? null : image.text,
            target: image.href,
            location,
          });
        } else {
          blocks.push({ type: 'paragraph', text: inlineText(paragraph.tokens).trim(), location });
        }
        break;
      }
      case 'list': {
        const items: { text: string; depth?: number }[] = [];
        listItems(token as Tokens.List, 0, items);
        blocks.push({ type: 'list', ordered: (token as Tokens.List).ordered, items, location });
        break;
      }
      case 'table': {
        const table = token as Tokens.Table;
        blocks.push({
          type: 'table',
          header: table.header.map((cell) => squash(inlineText(cell.tokens))),
          rows: table.rows.map((row) => row.map((cell) => squash(inlineText(cell.tokens)))),
          location,
        });
        break;
      }
      case 'code': {
        const code = token as Tokens.Code;
        blocks.push({
          type: 'code',
          language: code.lang === undefined || code.lang === '' ? null : code.lang,
          text: code.text,
          location,
        });
        break;
      }
      case 'blockquote':
        toBlocks((token as Tokens.Blockquote).tokens, line, blocks);
        break;
      default:
        break;
    }
    line += (token.raw.match(/\n/g) ?? []).length;
  }
}

/**
 * Markdown (CommonMark + GFM tables and task lists) by marked's lexer — about 20× faster than
 * micromark on large files — into blocks with their first line numbers.
 */
export const markdownParser: ParserProvider = {
  ...REF,
  source: 'builtin',
  formats: ['md'],
  parse: (input, context) =>
    parseSafely(REF, async () => {
      const startedAt = Date.now();
      const { decoded, warnings } = decodeTextFile(input.bytes);
      const source = decoded.text.replace(/\r\n?/g, '\n');
      const blocks: DocumentBlock[] = [];
      // Loaded with the first Markdown document, not with the server (decision 0025).
      const { Lexer } = await import('marked');
      toBlocks(new Lexer({ gfm: true }).lex(source), 1, blocks);
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
