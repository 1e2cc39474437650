export { CodeBlock, copyText, useCopy } from './code-block.tsx';
export { Markdown } from './markdown.tsx';
export { extendMarkdownBlocks, needsMath, splitMarkdownBlocks } from './markdown-blocks.ts';
export type { MarkdownSplit } from './markdown-blocks.ts';
export { SANITIZE_SCHEMA } from './sanitize-schema.ts';
