/**
 * A split of Markdown into blocks that a longer text (the same message, streamed further) can
 * extend: the blocks ended by a complete line are final, so only the text from the start of the
 * unfinished block on is split again.
 */
export interface MarkdownSplit {
  readonly text: string;
  readonly blocks: readonly string[];
  /** How many of `blocks` are final. */
  readonly finished: number;
  /** Where the text after the final blocks starts. */
  readonly tailStart: number;
}

function split(text: string, start: number, finishedBlocks: readonly string[]): MarkdownSplit {
  const blocks = [...finishedBlocks];
  let current: string[] = [];
  let currentStart = start;
  let fence: string | undefined;
  let math = false;
  let finished = blocks.length;
  let tailStart = start;
  const flush = (): void => {
    while (current.length > 0 && current.at(-1)?.trim() === '') current.pop();
    if (current.length > 0) blocks.push(current.join('\n'));
    current = [];
  };
  const push = (line: string, offset: number): void => {
    if (current.length === 0) currentStart = offset;
    current.push(line);
  };
  let offset = start;
  while (offset <= text.length) {
    const end = text.indexOf('\n', offset);
    const last = end === -1;
    const line = last ? text.slice(offset) : text.slice(offset, end);
    // The last line may be cut mid-way (streaming): what it decides is not final yet.
    if (last) {
      finished = blocks.length;
      tailStart = current.length === 0 ? offset : currentStart;
    }
    const trimmed = line.trimStart();
    if (fence !== undefined) {
      current.push(line);
      if (trimmed.startsWith(fence) && trimmed.slice(fence.length).trim() === '') fence = undefined;
    } else if (math) {
      current.push(line);
      if (trimmed.startsWith('$$')) math = false;
    } else if (line.trim() === '') {
      // A blank line ends a block unless the next line continues it (a loose list item).
      push(line, offset);
    } else {
      const previousBlank = current.length > 0 && current.at(-1)?.trim() === '';
      const continuation = /^\s{2,}\S/.test(line) || /^\s*([-*+]|\d+[.)])\s/.test(line);
      if (previousBlank && !continuation) flush();
      const opening = /^(`{3,}|~{3,})/.exec(trimmed);
      if (opening?.[1] !== undefined) fence = opening[1];
      else if (trimmed.startsWith('$$') && !(trimmed.length > 2 && trimmed.endsWith('$$'))) math = true;
      push(line, offset);
    }
    if (last) break;
    offset = end + 1;
  }
  flush();
  return { text, blocks, finished, tailStart };
}

/**
 * Splits Markdown into top-level blocks at blank lines that are outside fenced code and `$$` math,
 * so a streaming message re-parses only its last block while the finished ones stay memoized.
 *
 * @example
 * splitMarkdownBlocks('# Title\n\nText\n\n```js\na\n\nb\n```'); // ['# Title', 'Text', '```js\na\n\nb\n```']
 */
export function splitMarkdownBlocks(text: string): string[] {
  return [...split(text, 0, []).blocks];
}

/**
 * The split of `text`, reusing `previous` (the split of an earlier, shorter version of it) when
 * `text` extends it: only the unfinished tail is split again, so a reply streamed for minutes costs
 * the same per delta as a short one. The same blocks, element for element, as splitMarkdownBlocks.
 *
 * @example
 * const first = extendMarkdownBlocks(undefined, 'A\n\nB');
 * extendMarkdownBlocks(first, 'A\n\nBC\n\nD').blocks; // ['A', 'BC', 'D']
 */
export function extendMarkdownBlocks(previous: MarkdownSplit | undefined, text: string): MarkdownSplit {
  if (previous === undefined || !text.startsWith(previous.text)) return split(text, 0, []);
  return split(text, previous.tailStart, previous.blocks.slice(0, previous.finished));
}

/** True when the text has math that needs KaTeX: `$$…$$`, `\(…\)`, `\[…\]` or `$x$`. */
export function needsMath(text: string): boolean {
  return /\$\$[\s\S]+?\$\$|\\\([\s\S]+?\\\)|\\\[[\s\S]+?\\\]|(^|[^\\$\w])\$[^\s$][^$\n]*?[^\s\\$]\$(?![\w$])|(^|[^\\$\w])\$[^\s$]\$(?![\w$])/.test(
    text,
  );
}
