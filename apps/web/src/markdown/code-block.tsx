import { Fragment, jsx, jsxs } from 'react/jsx-runtime';
import { toJsxRuntime } from 'hast-util-to-jsx-runtime';
import { lazy, memo, Suspense, useEffect, useState, type ReactElement, type ReactNode } from 'react';
import type { Root } from 'hast';
import { useTranslation } from '../i18n/index.ts';
import { CheckIcon, CopyIcon } from '../icons/index.ts';
import { highlightToHast } from './highlighter.ts';
import { recentCache } from './recent-cache.ts';

const MermaidDiagram = lazy(() => import('./mermaid-diagram.tsx'));

/**
 * Writes text to the clipboard: the async Clipboard API where the page is a secure context
 * (loopback is), else a hidden textarea and the copy command (a workbench reached over plain HTTP
 * on a LAN address).
 */
export async function copyText(text: string): Promise<void> {
  if (typeof navigator.clipboard?.writeText === 'function' && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const copied = document.execCommand('copy');
  area.remove();
  if (!copied) throw new Error('copy refused');
}

/** Copies text to the clipboard and shows "Copied" for a moment. */
export function useCopy(): { copied: boolean; copy: (text: string) => void } {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return undefined;
    const timer = setTimeout(() => setCopied(false), 1500);
    return () => clearTimeout(timer);
  }, [copied]);
  return {
    copied,
    copy: (text) => {
      void navigator.clipboard?.writeText(text).then(
        () => setCopied(true),
        () => setCopied(false),
      );
    },
  };
}

/** Finished blocks already highlighted: one drawn again (moved into a chunk, scrolled back into view) shows at once. */
const highlightedBlocks = recentCache<ReactNode>(500);

function Highlighted({
  code,
  language,
  streaming,
}: {
  code: string;
  language: string;
  streaming: boolean;
}): ReactNode {
  const key = `${language}\u0000${code}`;
  const known = streaming ? undefined : highlightedBlocks.get(key);
  const [tree, setTree] = useState<{ code: string; root: Root | undefined }>();
  useEffect(() => {
    if (known !== undefined) return undefined;
    // While a block streams, highlight at most every 300 ms; the plain text shows meanwhile.
    let cancelled = false;
    const timer = setTimeout(
      () => {
        highlightToHast(code, language).then(
          (root) => {
            if (!cancelled) setTree({ code, root });
          },
          () => undefined,
        );
      },
      streaming ? 300 : 0,
    );
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [code, language, streaming, known]);
  if (known !== undefined) return known;
  if (tree?.root === undefined)
    return (
      <pre className="code-plain">
        <code>{code}</code>
      </pre>
    );
  if (tree.code === code) {
    const rendered = toJsxRuntime(tree.root, { Fragment, jsx, jsxs });
    if (!streaming) highlightedBlocks.set(key, rendered);
    return rendered;
  }
  return (
    <pre className="code-plain">
      <code>{code}</code>
    </pre>
  );
}

/**
 * A fenced code block: language label, copy button, lazy highlighting; `mermaid` blocks draw as
 * diagrams once complete (mermaid loads only then).
 */
export const CodeBlock = memo(function CodeBlock({
  code,
  language,
  streaming,
}: {
  code: string;
  language: string;
  streaming: boolean;
}): ReactElement {
  const t = useTranslation();
  const { copied, copy } = useCopy();
  const isDiagram = language === 'mermaid' && !streaming;
  return (
    <div className="code-block" data-language={language}>
      <div className="code-header">
        <span className="code-language">
          {isDiagram ? t('code.diagram') : language === '' ? 'text' : language}
        </span>
        <button type="button" className="code-copy" onClick={() => copy(code)} aria-label={t('code.copy')}>
          {copied ? <CheckIcon size={14} /> : <CopyIcon size={14} />}
          <span>{copied ? t('code.copied') : t('code.copy')}</span>
        </button>
      </div>
      {isDiagram ? (
        <Suspense
          fallback={
            <pre className="code-plain">
              <code>{code}</code>
            </pre>
          }
        >
          <MermaidDiagram code={code} errorLabel={t('code.diagramError')} />
        </Suspense>
      ) : language === '' ? (
        <pre className="code-plain">
          <code>{code}</code>
        </pre>
      ) : (
        <Highlighted code={code} language={language} streaming={streaming} />
      )}
    </div>
  );
});
