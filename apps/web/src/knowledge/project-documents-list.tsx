import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { useTranslation } from '../i18n/index.ts';
import { useNavigation } from '../navigation/index.ts';
import { useConversationQuery } from '../queries/index.ts';
import { useServices } from '../services/index.ts';
import { useDocumentViewer } from './document-viewer-store.ts';
import { PROJECT_DOCUMENTS_KEY, useDocumentScope, useKnowledge } from './knowledge-queries.ts';
import { projectDocumentRows } from './project-documents.ts';

/**
 * The project's Documents (the right column's Documents tab when no document is open): each
 * upload and artifact of its knowledge with its status — waiting, being read, indexed, or failed
 * with the reason and a Retry — its name (opens it), the conversation it came from, and whether it
 * is in the project's knowledge or kept to its conversation.
 */
export function ProjectDocumentsList(): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const selected = useNavigation((state) => state.projectId);
  const conversationId = useNavigation((state) => state.conversationId);
  // The open conversation's project first: a conversation opened by its link selects none.
  const projectId = useConversationQuery(conversationId).data?.conversation.project_id ?? selected;
  const openConversation = useNavigation((state) => state.openConversation);
  const openDocument = useDocumentViewer((state) => state.open);
  const knowledge = useKnowledge(projectId ?? null);
  const documents = useQuery({
    queryKey: [PROJECT_DOCUMENTS_KEY, projectId],
    queryFn: () => api.listProjectDocuments(projectId ?? ''),
    enabled: projectId !== undefined,
    refetchInterval: (query) =>
      (query.state.data ?? []).some(
        (document) => document.status === 'queued' || document.status === 'parsing',
      )
        ? 1000
        : false,
  });
  const refresh = async (): Promise<void> => {
    await queryClient.invalidateQueries({ queryKey: [PROJECT_DOCUMENTS_KEY, projectId] });
    await queryClient.invalidateQueries({ queryKey: ['knowledge', projectId ?? null] });
  };
  const retry = useMutation({
    mutationFn: async (target: { kind: 'document' | 'knowledge'; id: string }): Promise<void> => {
      if (target.kind === 'document') await api.retryDocument(target.id);
      else await api.retryKnowledge(target.id);
    },
    onSettled: refresh,
  });
  const scope = useDocumentScope(projectId ?? null);

  if (projectId === undefined) return <p className="workbench-empty">{t('knowledge.documentsNoProject')}</p>;
  if (documents.isPending || knowledge.isPending)
    return <p className="workbench-empty">{t('knowledge.loading')}</p>;
  const rows = projectDocumentRows(documents.data ?? [], knowledge.data?.items ?? []);
  if (rows.length === 0) return <p className="workbench-empty">{t('knowledge.documentsEmpty')}</p>;
  return (
    <ul className="project-documents" data-testid="project-documents">
      {rows.map((row) => (
        <li key={row.key} className="project-document" data-status={row.status}>
          <button type="button" className="link-button" onClick={() => openDocument(row.openId)}>
            {row.name}
          </button>
          <span
            className={`knowledge-status-${row.status}`}
            role={row.status === 'failed' ? 'alert' : undefined}
          >
            {t(`knowledge.documentStatus.${row.status}`)}
            {row.reason !== undefined && (
              <span className="field-error"> {t('knowledge.failedBecause', { reason: row.reason })}</span>
            )}
          </span>
          {row.retry !== undefined && (
            <button
              type="button"
              className="button"
              disabled={retry.isPending}
              onClick={() => row.retry !== undefined && retry.mutate(row.retry)}
            >
              {t('knowledge.retry')}
            </button>
          )}
          {row.conversationId !== null && (
            <button
              type="button"
              className="link-button project-document-source"
              onClick={() => row.conversationId !== null && openConversation(row.conversationId)}
            >
              {t('knowledge.fromConversation')}
            </button>
          )}
          {row.documentId !== undefined && (
            <label className="attachment-scope">
              <input
                type="checkbox"
                checked={row.scope === 'conversation'}
                disabled={scope.isPending}
                onChange={(event) =>
                  row.documentId !== undefined &&
                  scope.mutate({
                    documentId: row.documentId,
                    scope: event.target.checked ? 'conversation' : 'project',
                  })
                }
              />
              {t('composer.keepToConversation')}
            </label>
          )}
        </li>
      ))}
    </ul>
  );
}
