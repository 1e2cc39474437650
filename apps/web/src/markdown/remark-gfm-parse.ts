import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import type { Processor } from 'unified';

/** The parser's extension lists in a processor's data (remark-parse reads them). */
interface ParserData {
  micromarkExtensions?: ReturnType<typeof gfm>[];
  fromMarkdownExtensions?: ReturnType<typeof gfmFromMarkdown>[];
}

/**
 * GitHub-flavoured Markdown (tables, task lists, strikethrough, autolinks, footnotes) for parsing
 * only: what remark-gfm does, without its Markdown serialiser (mdast-util-to-markdown), which
 * rendering never uses and which would be ~7 KB gzip of the app shell.
 */
export function remarkGfmParse(this: Processor): void {
  const data = this.data() as ParserData;
  (data.micromarkExtensions ??= []).push(gfm());
  (data.fromMarkdownExtensions ??= []).push(gfmFromMarkdown());
}
