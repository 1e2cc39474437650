/**
 * Splits Markdown into top-level blocks at blank lines that are outside fenced code and `$$` math,
 * so a streaming message re-parses only its last block while the finished ones stay memoized.
 *
 * @example
 * splitMarkdownBlocks('# Title\n\nText\n\n```js\na\n\nb\n```'); // ['# Title', 'Text', '```js\na\n\nb\n```']
 */
export function splitMarkdownBlocks(text: string): string[] {
  const blocks: string[] = [];
  const lines = text.split('\n');
  let current: string[] = [];
  let fence: string | undefined;
  let math = false;
  const flush = (): void => {
    while (current.length > 0 && current.at(-1)?.trim() === '') current.pop();
    if (current.length > 0) blocks.push(current.join('\n'));
    current = [];
  };
  for (const line of lines) {
    const trimmed = line.trimStart();
    if (fence !== undefined) {
      current.push(line);
      if (trimmed.startsWith(fence) && trimmed.slice(fence.length).trim() === '') fence = undefined;
      continue;
    }
    if (math) {
      current.push(line);
      if (trimmed.startsWith('$$')) math = false;
      continue;
    }
    // A blank line ends a block unless the next line continues it (a loose list item).
    if (line.trim() === '') {
      current.push(line);
      continue;
    }
    const previousBlank = current.length > 0 && current.at(-1)?.trim() === '';
    const continuation = /^\s{2,}\S/.test(line) || /^\s*([-*+]|\d+[.)])\s/.test(line);
    if (previousBlank && !continuation) flush();
    const opening = /^(`{3,}|~{3,})/.exec(trimmed);
    if (opening?.[1] !== undefined) fence = opening[1];
    else if (trimmed.startsWith('$$') && !(trimmed.length > 2 && trimmed.endsWith('$$'))) math = true;
    current.push(line);
  }
  flush();
  return blocks;
}

/** True when the text has math that needs KaTeX: `$$…$$`, `\(…\)`, `\[…\]` or `$x$`. */
export function needsMath(text: string): boolean {
  return /\$\$[\s\S]+?\$\$|\\\([\s\S]+?\\\)|\\\[[\s\S]+?\\\]|(^|[^\\$\w])\$[^\s$][^$\n]*?[^\s\\$]\$(?![\w$])|(^|[^\\$\w])\$[^\s$]\$(?![\w$])/.test(
    text,
  );
}
