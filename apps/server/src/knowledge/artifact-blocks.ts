import type { ArtifactKind, DocumentBlock } from '@youyou/contracts';

const LIST_ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replaceAll('\\|', '|'));
}

/**
 * Markdown as document blocks: ATX headings, fenced code, pipe tables, lists and paragraphs, each
 * with its first line as location. Enough structure for chunking and the viewer; artifacts are the
 * agent's own markdown, not arbitrary files (those go through ingest's parsers).
 *
 * @example
 * markdownBlocks('# Plan\n\nShip it.'); // [{ type: 'heading', level: 1, … }, { type: 'paragraph', … }]
 */
export function markdownBlocks(markdown: string): DocumentBlock[] {
  const lines = markdown.replaceAll('\r\n', '\n').split('\n');
  const blocks: DocumentBlock[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] ?? '';
    const at = { line: index + 1 };
    if (line.trim() === '') {
      index += 1;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading !== null) {
      blocks.push({ type: 'heading', level: heading[1]?.length ?? 1, text: heading[2] ?? '', location: at });
      index += 1;
      continue;
    }
    const fence = /^\s*(`{3,}|~{3,})\s*([\w+#.-]*)/.exec(line);
    if (fence !== null) {
      const marker = fence[1] ?? '```';
      const body: string[] = [];
      index += 1;
      while (index < lines.length && !(lines[index] ?? '').trim().startsWith(marker)) {
        body.push(lines[index] ?? '');
        index += 1;
      }
      index += 1;
      blocks.push({
        type: 'code',
        language: fence[2] === '' ? null : (fence[2] ?? null),
        text: body.join('\n'),
        location: at,
      });
      continue;
    }
    if (TABLE_ROW.test(line) && TABLE_RULE.test(lines[index + 1] ?? '')) {
      const header = cells(line);
      const rows: string[][] = [];
      index += 2;
      while (index < lines.length && TABLE_ROW.test(lines[index] ?? '')) {
        rows.push(cells(lines[index] ?? ''));
        index += 1;
      }
      blocks.push({ type: 'table', header, rows, location: at });
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item !== null) {
      const ordered = /\d/.test(item[2] ?? '');
      const items: { text: string; depth?: number }[] = [];
      while (index < lines.length) {
        const next = LIST_ITEM.exec(lines[index] ?? '');
        if (next === null) break;
        const depth = Math.floor((next[1]?.replaceAll('\t', '  ').length ?? 0) / 2);
        items.push(depth === 0 ? { text: next[3] ?? '' } : { text: next[3] ?? '', depth });
        index += 1;
      }
      blocks.push({ type: 'list', ordered, items, location: at });
      continue;
    }
    const paragraph: string[] = [];
    while (index < lines.length) {
      const next = lines[index] ?? '';
      if (
        next.trim() === '' ||
        /^#{1,6}\s/.test(next) ||
        /^\s*(`{3,}|~{3,})/.test(next) ||
        LIST_ITEM.test(next)
      )
        break;
      if (TABLE_ROW.test(next) && TABLE_RULE.test(lines[index + 1] ?? '')) break;
      paragraph.push(next.trim());
      index += 1;
    }
    blocks.push({ type: 'paragraph', text: paragraph.join(' '), location: at });
  }
  return blocks;
}

/**
 * An artifact's text as blocks: markdown and plain text parsed for structure; code, JSON, HTML,
 * SVG and Mermaid as one code block each; CSV as a table.
 *
 * @example
 * artifactBlocks('code', 'ts', 'const a = 1;'); // [{ type: 'code', language: 'ts', … }]
 */
export function artifactBlocks(
  kind: ArtifactKind,
  language: string | null,
  content: string,
): DocumentBlock[] {
  switch (kind) {
    case 'markdown':
    case 'text':
      return markdownBlocks(content);
    case 'csv': {
      const rows = content
        .replaceAll('\r\n', '\n')
        .split('\n')
        .filter((row) => row.trim() !== '')
        .map((row) => row.split(',').map((cell) => cell.trim().replace(/^"(.*)"$/, '$1')));
      const [header = [], ...rest] = rows;
      return [{ type: 'table', header, rows: rest, location: { line: 1 } }];
    }
    case 'code':
      return [{ type: 'code', language, text: content, location: { line: 1 } }];
    case 'json':
    case 'html':
    case 'svg':
    case 'mermaid':
      return [{ type: 'code', language: kind, text: content, location: { line: 1 } }];
    case 'upload':
      return [];
    default:
      return [];
  }
}
