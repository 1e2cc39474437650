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

const MarkdownBlock = memo(function MarkdownBlock({
  text,
  streaming,
  withMath,
}: {
  text: string;
  streaming: boolean;
  withMath: boolean;
}): ReactElement {
  const plugins = math.get();
  const remarkPlugins: PluggableList =
    withMath && plugins !== undefined ? [remarkGfmParse, plugins.remarkMath] : [remarkGfmParse];
  // Sanitize first; KaTeX then renders math from the (already sanitized) text, without trust
  // (`\href`, `\url`, `\htmlData` … stay inert); last, anything that could still run script goes.
  const rehypePlugins: PluggableList =
    withMath && plugins !== undefined
      ? [
          [rehypeSanitize, SANITIZE_SCHEMA],
          [plugins.rehypeKatex, { trust: false, strict: 'ignore', throwOnError: false }],
          rehypeStripActiveContent,
        ]
      : [[rehypeSanitize, SANITIZE_SCHEMA], rehypeStripActiveContent];
  return (
    <ReactMarkdown
      remarkPlugins={remarkPlugins}
      rehypePlugins={rehypePlugins}
      components={streaming ? STREAMING_COMPONENTS : STATIC_COMPONENTS}
      urlTransform={urlTransform}
      skipHtml
    >
      {text}
    </ReactMarkdown>
  );
});

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
  return (
    <div className="markdown">
      {blocks.map((block, index) => (
        <MarkdownBlock
          // Blocks only grow at the end, so the index is a stable identity.
          key={index}
          text={block}
          streaming={streaming && index === blocks.length - 1}
          withMath={hasMath && mathLoaded}
        />
      ))}
    </div>
  );
});
