import type { ReactElement } from 'react';
import type { KnowledgeItem } from '@youyou/contracts';
import { useTranslation } from '../i18n/index.ts';
import { useDocumentViewer } from './document-viewer-store.ts';
import { useKnowledge, useKnowledgeActions } from './knowledge-queries.ts';

/**
 * A project's knowledge index (spec §4.12): its indexed uploads and artifacts with their status
 * (queued / parsing / indexed / failed and why), retry per item, retry of the failed ones and a
 * rebuild of the whole project. Settings → Knowledge and the project's knowledge page both show it.
 */
export function KnowledgeIndex({
  projectId,
  onOpenDocument,
}: {
  projectId: string | null;
  /** Called after a document was opened in the viewer (a dialog closes to show it). */
  onOpenDocument?: () => void;
}): ReactElement {
  const t = useTranslation();
  const knowledge = useKnowledge(projectId);
  const { retry, rebuild } = useKnowledgeActions(projectId);
  const openDocument = useDocumentViewer((state) => state.open);
  const items: KnowledgeItem[] = knowledge.data?.items ?? [];
  const counts = knowledge.data?.counts;
  return (
    <div className="knowledge-index">
      {counts !== undefined && (
        <p role="status" data-testid="knowledge-counts">
          {t('knowledge.counts', {
            indexed: counts.indexed,
            pending: counts.queued + counts.parsing,
            failed: counts.failed,
          })}
        </p>
      )}
      <div className="settings-actions">
        <button
          type="button"
          className="button"
          disabled={projectId === null || rebuild.isPending}
          onClick={() => rebuild.mutate(false)}
        >
          {t('knowledge.rebuild')}
        </button>
        <button
          type="button"
          className="button"
          disabled={projectId === null || rebuild.isPending || (counts?.failed ?? 0) === 0}
          onClick={() => rebuild.mutate(true)}
        >
          {t('knowledge.retryFailed')}
        </button>
      </div>
      {items.length === 0 ? (
        <p className="workbench-empty">{t('knowledge.empty')}</p>
      ) : (
        <table data-testid="knowledge-items">
          <thead>
            <tr>
              <th>{t('knowledge.document')}</th>
              <th>{t('knowledge.source')}</th>
              <th>{t('knowledge.status')}</th>
              <th>{t('knowledge.chunks')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.id}>
                <td>
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => {
                      openDocument(item.id);
                      onOpenDocument?.();
                    }}
                  >
                    {item.title}
                  </button>
                </td>
                <td>{t(`knowledge.source.${item.source}`)}</td>
                <td className={`knowledge-status-${item.status}`}>
                  {t(`knowledge.status.${item.status}`)}
                  {item.error !== null && (
                    <span className="field-error">
                      {' '}
                      {t('knowledge.failedBecause', { reason: item.error.message })}
                    </span>
                  )}
                </td>
                <td>{item.chunk_count}</td>
                <td>
                  <button
                    type="button"
                    className="button"
                    disabled={item.status === 'queued' || item.status === 'parsing'}
                    onClick={() => retry.mutate(item.id)}
                  >
                    {t('knowledge.retry')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
