import { useState, type ReactElement, type ReactNode } from 'react';
import type { Citation } from '@youyou/contracts';
import { errorMessage } from '../api/index.ts';
import { useTranslation } from '../i18n/index.ts';
import { SearchIcon } from '../icons/index.ts';
import { useDocumentViewer } from './document-viewer-store.ts';
import { useKnowledgeSearch } from './knowledge-queries.ts';

/** The snippet with its matched stretches marked. */
function highlighted(citation: Citation): ReactNode[] {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const { start, end } of [...citation.highlights].sort((a, b) => a.start - b.start)) {
    if (start < at || end <= start) continue;
    if (start > at) parts.push(citation.snippet.slice(at, start));
    parts.push(<mark key={start}>{citation.snippet.slice(start, end)}</mark>);
    at = end;
  }
  if (at < citation.snippet.length) parts.push(citation.snippet.slice(at));
  return parts;
}

/** Where in its document a citation points: page, slide or sheet, and its headings. */
function placeOf(citation: Citation, t: ReturnType<typeof useTranslation>): string {
  const { page, slide, sheet } = citation.location;
  const place =
    page !== undefined
      ? t('knowledge.search.page', { page })
      : slide !== undefined
        ? t('knowledge.search.slide', { slide })
        : sheet !== undefined
          ? t('knowledge.search.sheet', { sheet })
          : t('knowledge.search.block', { block: citation.block_start + 1 });
  return [place, ...citation.heading_path].join(' · ');
}

/**
 * A search box over a project's knowledge (spec §4.12): each hit with its citation — the document,
 * where in it, the snippet with the match marked — opening the document at the cited block.
 */
export function KnowledgeSearch({
  projectId,
  onOpenDocument,
}: {
  projectId: string | null;
  onOpenDocument?: () => void;
}): ReactElement {
  const t = useTranslation();
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const search = useKnowledgeSearch(projectId, query);
  const openDocument = useDocumentViewer((state) => state.open);
  const hits = search.data?.hits ?? [];
  return (
    <section className="knowledge-search" aria-label={t('knowledge.search.title')}>
      <form
        className="knowledge-search-form"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          setQuery(text.trim());
        }}
      >
        <input
          type="search"
          aria-label={t('knowledge.search.label')}
          placeholder={t('knowledge.search.label')}
          value={text}
          onChange={(event) => setText(event.target.value)}
          data-testid="knowledge-search-input"
        />
        <button type="submit" className="button" disabled={text.trim() === ''}>
          <SearchIcon size={15} /> {t('knowledge.search.submit')}
        </button>
      </form>
      {search.isError && (
        <p className="field-error" role="alert">
          {errorMessage(search.error)}
        </p>
      )}
      {query !== '' && search.isSuccess && hits.length === 0 && (
        <p className="workbench-empty">{t('knowledge.search.none', { query })}</p>
      )}
      {hits.length > 0 && (
        <ol className="knowledge-hits" data-testid="knowledge-hits">
          {hits.map((hit) => (
            <li key={hit.chunk_id} className="knowledge-hit">
              <button
                type="button"
                className="link-button knowledge-hit-title"
                title={hit.citation.link}
                onClick={() => {
                  openDocument(hit.citation.knowledge_id, hit.citation.block_start);
                  onOpenDocument?.();
                }}
              >
                {hit.citation.title}
              </button>
              <span className="knowledge-hit-place">{placeOf(hit.citation, t)}</span>
              <p className="knowledge-hit-snippet">{highlighted(hit.citation)}</p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
