import type { Mermaid } from 'mermaid';
import { useEffect, useId, useState, useSyncExternalStore, type ReactElement } from 'react';
import { sanitizeSvg } from './sanitize-svg.ts';

let loaded: Promise<Mermaid> | undefined;

function loadMermaid(): Promise<Mermaid> {
  loaded ??= import('mermaid').then(({ default: mermaid }) => mermaid);
  return loaded;
}

/** The page's theme (`data-theme` on <html>), live. */
function subscribeTheme(listener: () => void): () => void {
  const observer = new MutationObserver(listener);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return () => observer.disconnect();
}

function pageTheme(): string {
  return document.documentElement.dataset['theme'] ?? 'light';
}

/** A mermaid diagram, drawn by mermaid in strict security mode; the source shows when it fails. */
export default function MermaidDiagram({
  code,
  errorLabel,
}: {
  code: string;
  errorLabel: string;
}): ReactElement {
  const id = `mermaid-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const [result, setResult] = useState<{ svg: string } | { error: true }>();
  const theme = useSyncExternalStore(subscribeTheme, pageTheme);
  useEffect(() => {
    let cancelled = false;
    loadMermaid()
      .then((mermaid) => {
        // strict: mermaid sanitizes labels (DOMPurify), no HTML labels, no click handlers.
        mermaid.initialize({
          startOnLoad: false,
          securityLevel: 'strict',
          theme: theme === 'dark' ? 'dark' : 'neutral',
          htmlLabels: false,
          flowchart: { htmlLabels: false },
        });
        return mermaid.render(id, code);
      })
      .then(
        ({ svg }) => {
          if (!cancelled) setResult({ svg: sanitizeSvg(svg) });
        },
        () => {
          if (!cancelled) setResult({ error: true });
        },
      );
    return () => {
      cancelled = true;
    };
  }, [id, code, theme]);
  if (result === undefined)
    return (
      <pre className="code-plain">
        <code>{code}</code>
      </pre>
    );
  if ('error' in result) {
    return (
      <div>
        <p className="field-error">{errorLabel}</p>
        <pre className="code-plain">
          <code>{code}</code>
        </pre>
      </div>
    );
  }
  // The SVG comes from mermaid's strict renderer and then our own sanitizer (sanitizeSvg): no
  // script, handler or active URL survives, CSP or not.
  return (
    <div
      className="mermaid-diagram"
      role="img"
      aria-label="diagram"
      dangerouslySetInnerHTML={{ __html: result.svg }}
    />
  );
}
