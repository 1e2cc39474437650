import { useEffect, useRef, type ReactElement } from 'react';
import type { DocumentBlock, DocumentView } from '@youyou/contracts';
import { useTranslation } from '../i18n/index.ts';
import { useDocumentViewer } from './document-viewer-store.ts';
import { useDocumentScope, useKnowledgeDocument } from './knowledge-queries.ts';
import { ProjectDocumentsList } from './project-documents-list.tsx';
import './knowledge.css';

function BlockView({ block }: { block: DocumentBlock }): ReactElement | null {
  switch (block.type) {
    case 'heading': {
      const level = Math.min(6, block.level + 1);
      const Tag = `h${level}` as 'h2';
      return <Tag>{block.text}</Tag>;
    }
    case 'paragraph':
      return (
        <p className={block.role === undefined ? undefined : `document-role-${block.role}`}>{block.text}</p>
      );
    case 'list': {
      const items = block.items.map((item, index) => (
        <li key={index} style={{ marginInlineStart: `${(item.depth ?? 0) * 1.2}em` }}>
          {item.text}
        </li>
      ));
      return block.ordered ? <ol>{items}</ol> : <ul>{items}</ul>;
    }
    case 'table':
      return (
        <div className="table-scroll">
          <table>
            {block.header.length > 0 && (
              <thead>
                <tr>
                  {block.header.map((cell, index) => (
                    <th key={index}>{cell}</th>
                  ))}
                </tr>
              </thead>
            )}
            <tbody>
              {block.rows.map((row, rowIndex) => (
                <tr key={rowIndex}>
                  {row.map((cell, index) => (
                    <td key={index}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case 'code':
      return (
        <pre>
          <code>{block.text}</code>
        </pre>
      );
    case 'image_ref':
      return <p className="document-image">[{block.alt ?? block.target ?? ''}]</p>;
    case 'page_break':
      return <hr />;
    default:
      return null;
  }
}

function locationOf(block: DocumentBlock): string {
  const { page, slide, sheet } = block.location;
  return page !== undefined ? `p. ${page}` : slide !== undefined ? `#${slide}` : (sheet ?? '');
}

/**
 * The viewer's "only this conversation" box for an uploaded document of a project: it follows the
 * server (checked once the change is answered), and the viewer then shows the document by its own
 * id, since one kept to its conversation has no knowledge item to be read through.
 */
function ScopeToggle({ upload }: { upload: DocumentView }): ReactElement {
  const t = useTranslation();
  const scope = useDocumentScope(upload.project_id);
  return (
    <label className="attachment-scope document-viewer-scope">
      <input
        type="checkbox"
        data-testid="viewer-scope"
        checked={upload.knowledge_scope === 'conversation'}
        disabled={scope.isPending}
        onChange={(event) =>
          scope.mutate(
            { documentId: upload.id, scope: event.target.checked ? 'conversation' : 'project' },
            { onSuccess: () => useDocumentViewer.setState({ documentId: upload.id }) },
          )
        }
      />
      {t('composer.keepToConversation')}
    </label>
  );
}

/**
 * The right column's Documents tab: the project's documents, and once one is opened (from the
 * list or a citation) the document viewer (spec §4.4 "文档查看器"): the parsed blocks of a knowledge
 * item's document, scrolled to and marking the block a citation named. Text only: nothing in a
 * document reaches the DOM as markup.
 */
export function DocumentTab(): ReactElement {
  const t = useTranslation();
  const { documentId, block, openCount, close } = useDocumentViewer();
  const document = useKnowledgeDocument(documentId);
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (block === undefined || document.data === undefined) return;
    container.current?.querySelector(`#document-block-${block}`)?.scrollIntoView({ block: 'start' });
  }, [block, document.data, openCount]);

  if (documentId === undefined) return <ProjectDocumentsList />;
  if (document.isPending) return <p className="workbench-empty">{t('knowledge.loading')}</p>;
  if (document.isError)
    return (
      <p className="field-error" role="alert">
        {t('knowledge.viewerError', { reason: document.error.message })}
      </p>
    );
  const page = document.data;
  return (
    <div className="document-viewer" ref={container} data-testid="document-viewer">
      <div className="document-viewer-head">
        <strong>{page.title}</strong>
        <span className="badge">{t('knowledge.blocks', { count: page.total })}</span>
        <button type="button" className="button" onClick={close}>
          {t('knowledge.backToDocuments')}
        </button>
      </div>
      {page.upload !== undefined && <ScopeToggle upload={page.upload} />}
      {page.blocks.map((entry) => (
        <div
          key={entry.index}
          id={`document-block-${entry.index}`}
          className={`document-block${entry.index === block ? ' cited' : ''}`}
          data-block={entry.index}
          aria-current={entry.index === block ? 'location' : undefined}
        >
          {locationOf(entry.block) !== '' && (
            <span className="document-location">{locationOf(entry.block)}</span>
          )}
          <BlockView block={entry.block} />
        </div>
      ))}
    </div>
  );
}
