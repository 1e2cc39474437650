import { memo, useEffect, useMemo, useRef, useSyncExternalStore, type ReactElement } from 'react';
import ReactMarkdown, { defaultUrlTransform, type Components } from 'react-markdown';
import { parseDocumentLink } from '@youyou/contracts';
import { useDocumentViewer } from '../knowledge/index.ts';
import rehypeSanitize from 'rehype-sanitize';
import { remarkGfmParse } from './remark-gfm-parse.ts';
import type { PluggableList } from 'unified';
import { rehypeStripActiveContent } from './active-content.ts';
import { CodeBlock } from './code-block.tsx';
import { lazyResource } from './lazy-resource.ts';
import { recentCache } from './recent-cache.ts';
import { extendMarkdownBlocks, needsMath, type MarkdownSplit } from './markdown-blocks.ts';
import { SANITIZE_SCHEMA } from './sanitize-schema.ts';
import './markdown.css';

const math = lazyResource(() => import('./math-plugins.ts').then((module) => module.mathPlugins));

function textOf(children: unknown): string {
  if (typeof children === 'string') return children;
  if (Array.isArray(children)) return children.map(textOf).join('');
  return '';
}

function components(streaming: boolean): Components {
  return {
    // A fenced block is <pre><code class="language-x">; the CodeBlock draws both.
    pre: ({ children }) => <>{children}</>,
    code: ({ className, children }) => {
      const language = /language-([\w+#.-]+)/.exec(className ?? '')?.[1];
      const text = textOf(children);
      const block = language !== undefined || text.includes('\n');
      if (!block || className?.includes('math-') === true)
        return <code className={className}>{children}</code>;
      return <CodeBlock code={text.replace(/\n$/, '')} language={language ?? ''} streaming={streaming} />;
    },
    a: ({ href, children }) => {
      const citation = href === undefined ? null : parseDocumentLink(href);
      if (citation !== null)
        return (
          <a
            href={href}
            className="citation-link"
            data-document={citation.document_id}
            onClick={(event) => {
              event.preventDefault();
              useDocumentViewer.getState().open(citation.document_id, citation.block ?? undefined);
            }}
          >
            {children}
          </a>
        );
      return (
        <a href={href} target="_blank" rel="noopener noreferrer nofollow">
          {children}
        </a>
      );
    },
    table: ({ children }) => (
      <div className="table-scroll">
        <table>{children}</table>
      </div>
    ),
    img: ({ src, alt }) => (
      <img
        src={typeof src === 'string' ? src : undefined}
        alt={alt ?? ''}
        loading="lazy"
        referrerPolicy="no-referrer"
      />
    ),
  };
}

/** react-markdown's URL filter, letting citation links (`youyou-doc:`) through; the sanitizer checks them again. */
function urlTransform(url: string): string {
  return parseDocumentLink(url) !== null ? url : defaultUrlTransform(url);
}

const STATIC_COMPONENTS = components(false);
const STREAMING_COMPONENTS = components(true);

/** The rendered blocks of finished text: a row scrolled back into view, or a block moved into a chunk, is not parsed again. */
const renderedBlocks = recentCache<ReactElement>(2000);

function renderBlock(text: string, streaming: boolean, withMath: boolean): ReactElement {
  const plugins = math.get();
  const mathOn = withMath && plugins !== undefined;
  // A streaming block changes every frame: neither looked up nor kept.
  const key = streaming ? undefined : `${mathOn ? 'math' : 'plain'}\u0000${text}`;
  const cached = key === undefined ? undefined : renderedBlocks.get(key);
  if (cached !== undefined) return cached;
  const remarkPlugins: PluggableList = mathOn ? [remarkGfmParse, plugins.remarkMath] : [remarkGfmParse];
  // Sanitize first; KaTeX then renders math from the (already sanitized) text, without trust
  // (`\href`, `\url`, `\htmlData` … stay inert); last, anything that could still run script goes.
  const rehypePlugins: PluggableList = mathOn
    ? [
        [rehypeSanitize, SANITIZE_SCHEMA],
        [plugins.rehypeKatex, { trust: false, strict: 'ignore', throwOnError: false }],
        rehypeStripActiveContent,
      ]
    : [[rehypeSanitize, SANITIZE_SCHEMA], rehypeStripActiveContent];
  // react-markdown's Markdown is a plain function of its options (no hooks): its element is kept.
  const rendered = ReactMarkdown({
    remarkPlugins,
    rehypePlugins,
    components: streaming ? STREAMING_COMPONENTS : STATIC_COMPONENTS,
    urlTransform,
    skipHtml: true,
    children: text,
  });
  if (key !== undefined) renderedBlocks.set(key, rendered);
  return rendered;
}

const MarkdownBlock = memo(function MarkdownBlock({
  text,
  streaming,
  withMath,
}: {
  text: string;
  streaming: boolean;
  withMath: boolean;
}): ReactElement {
  return renderBlock(text, streaming, withMath);
});

/** Finished blocks per chunk of a long text. */
const CHUNK_BLOCKS = 32;

interface ChunkProps {
  blocks: readonly string[];
  start: number;
  withMath: boolean;
}

/**
 * A run of finished blocks of a long text, which the browser skips laying out and painting while
 * it is off screen (`content-visibility: auto`): a reply streaming for minutes keeps each frame's
 * work to what is on screen.
 */
const MarkdownChunk = memo(
  function MarkdownChunk({ blocks, start, withMath }: ChunkProps): ReactElement {
    const end = Math.min(blocks.length, start + CHUNK_BLOCKS);
    const children: ReactElement[] = [];
    for (let index = start; index < end; index += 1)
      children.push(
        <MarkdownBlock key={index} text={blocks[index] ?? ''} streaming={false} withMath={withMath} />,
      );
    return <div className="markdown-chunk">{children}</div>;
  },
  // A chunk's blocks are final; a new split of another text may still put other blocks there.
  (before, after) => {
    if (before.start !== after.start || before.withMath !== after.withMath) return false;
    for (let index = before.start; index < before.start + CHUNK_BLOCKS; index += 1)
      if (before.blocks[index] !== after.blocks[index]) return false;
    return true;
  },
);

/**
 * Model output as sanitized Markdown (GFM: tables, task lists, strikethrough, autolinks). Raw
 * HTML is dropped and everything goes through rehype-sanitize. Code highlighting, math (KaTeX)
 * and diagrams (mermaid) load only when a message needs them. While streaming, only the last
 * block re-renders.
 *
 * @example
 * <Markdown text={part.text} streaming={part.status === 'streaming'} />
 */
export const Markdown = memo(function Markdown({
  text,
  streaming = false,
}: {
  text: string;
  streaming?: boolean;
}): ReactElement {
  // A streamed reply only grows: split and search for math from its unfinished tail on (math
  // never spans blocks).
  const previous = useRef<{ split: MarkdownSplit; finishedMath: boolean } | undefined>(undefined);
  const { split, finishedMath, hasMath } = useMemo(() => {
    const before = previous.current;
    const next = extendMarkdownBlocks(before?.split, text);
    const extended = before !== undefined && text.startsWith(before.split.text);
    const finished = extended
      ? before.finishedMath || needsMath(text.slice(before.split.tailStart, next.tailStart))
      : needsMath(text.slice(0, next.tailStart));
    return {
      split: next,
      finishedMath: finished,
      hasMath: finished || needsMath(text.slice(next.tailStart)),
    };
  }, [text]);
  useEffect(() => {
    previous.current = { split, finishedMath };
  }, [split, finishedMath]);
  const blocks = split.blocks;
  const mathLoaded = useSyncExternalStore(math.subscribe, () => math.get() !== undefined);
  useEffect(() => {
    if (hasMath && !mathLoaded) void math.load();
  }, [hasMath, mathLoaded]);
  const withMath = hasMath && mathLoaded;
  // Whole chunks of finished blocks, never the last block (the one that may still grow).
  const chunked =
    blocks.length > CHUNK_BLOCKS
      ? Math.floor(Math.min(split.finished, blocks.length - 1) / CHUNK_BLOCKS) * CHUNK_BLOCKS
      : 0;
  const children: ReactElement[] = [];
  for (let start = 0; start < chunked; start += CHUNK_BLOCKS)
    children.push(
      <MarkdownChunk key={`chunk-${String(start)}`} blocks={blocks} start={start} withMath={withMath} />,
    );
  for (let index = chunked; index < blocks.length; index += 1)
    children.push(
      <MarkdownBlock
        // Blocks only grow at the end, so the index is a stable identity.
        key={index}
        text={blocks[index] ?? ''}
        streaming={streaming && index === blocks.length - 1}
        withMath={withMath}
      />,
    );
  return <div className="markdown">{children}</div>;
});
