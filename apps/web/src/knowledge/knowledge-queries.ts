import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import type {
  DocumentView,
  KnowledgeDocumentPage,
  KnowledgeScope,
  KnowledgeList,
  ReferenceCandidate,
  RetrievalResult,
} from '@youyou/contracts';
import { isApiError } from '../api/index.ts';
import { useServices } from '../services/index.ts';

const KNOWLEDGE_KEY = 'knowledge';
/** The query key of a project's documents (refreshed by `document.status` events, see syncDocuments). */
export const PROJECT_DOCUMENTS_KEY = 'project-documents';

/** A project's knowledge; polled while something is queued or being indexed. */
export function useKnowledge(projectId: string | null): UseQueryResult<KnowledgeList> {
  const { api } = useServices();
  return useQuery({
    queryKey: [KNOWLEDGE_KEY, projectId],
    queryFn: () => api.listKnowledge(projectId),
    refetchInterval: (query) => {
      const counts = query.state.data?.counts;
      return counts !== undefined && counts.queued + counts.parsing > 0 ? 1000 : false;
    },
  });
}

/** Retry one item, or rebuild a project's knowledge; both refresh the list. */
export function useKnowledgeActions(projectId: string | null) {
  const { api } = useServices();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: [KNOWLEDGE_KEY, projectId] });
  return {
    retry: useMutation({ mutationFn: (id: string) => api.retryKnowledge(id), onSettled: refresh }),
    rebuild: useMutation({
      mutationFn: (onlyFailed: boolean) =>
        projectId === null ? Promise.resolve({ queued: 0 }) : api.rebuildKnowledge(projectId, { onlyFailed }),
      onSettled: refresh,
    }),
  };
}

/** What the document viewer shows: a document's blocks, and the upload whose scope it can change. */
export interface ViewerDocument {
  title: string;
  total: number;
  blocks: KnowledgeDocumentPage['blocks'];
  /** The uploaded document shown, when it is one of a project's (its knowledge scope can change). */
  upload: DocumentView | undefined;
}

/**
 * A whole document's blocks, for the viewer: read through the knowledge index, or — for an upload
 * kept to its conversation, which has no knowledge item — from the document itself.
 */
export function useKnowledgeDocument(documentId: string | undefined): UseQueryResult<ViewerDocument> {
  const { api } = useServices();
  // Only a project's uploads can move between their conversation and the project's knowledge.
  const projectUpload = (document: DocumentView): DocumentView | undefined =>
    document.upload_id !== null && document.project_id !== null ? document : undefined;
  return useQuery({
    queryKey: [KNOWLEDGE_KEY, 'document', documentId],
    queryFn: async (): Promise<ViewerDocument> => {
      const id = documentId ?? '';
      try {
        const page = await api.readKnowledgeDocument(id);
        const documentOf = page.item.source === 'upload' ? page.item.document_id : null;
        const upload = documentOf === null ? undefined : projectUpload(await api.getDocument(documentOf));
        return { title: page.item.title, total: page.total, blocks: page.blocks, upload };
      } catch (error) {
        if (!isApiError(error, 'NOT_FOUND')) throw error;
        const document = await api.getDocument(id).catch(() => {
          throw error;
        });
        // The document's blocks come in pages (at most 500 each).
        const first = await api.getDocumentBlocks(document.id);
        const blocks = [...first.blocks];
        while (blocks.length < first.total) {
          const page = await api.getDocumentBlocks(document.id, { from: blocks.length });
          if (page.blocks.length === 0) break;
          blocks.push(...page.blocks);
        }
        return { title: document.name, total: first.total, blocks, upload: projectUpload(document) };
      }
    },
    enabled: documentId !== undefined,
  });
}

/**
 * Keeps an uploaded document to its conversation or puts it in its project's knowledge, then
 * reads again what shows it: the project's Documents, its knowledge, the `@` candidates, the viewer.
 */
export function useDocumentScope(projectId: string | null) {
  const { api } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: { documentId: string; scope: KnowledgeScope }) =>
      api.setDocumentKnowledgeScope(change.documentId, change.scope),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: [PROJECT_DOCUMENTS_KEY, projectId] });
      await queryClient.invalidateQueries({ queryKey: [KNOWLEDGE_KEY] });
    },
  });
}

/** The `@` picker's candidates for what is typed after the `@`. */
export function useReferenceCandidates(options: {
  enabled: boolean;
  projectId: string | undefined;
  conversationId: string | undefined;
  query: string;
}): UseQueryResult<ReferenceCandidate[]> {
  const { api } = useServices();
  return useQuery({
    queryKey: [KNOWLEDGE_KEY, 'references', options.projectId, options.conversationId, options.query],
    queryFn: () =>
      api.listReferences({
        ...(options.projectId === undefined ? {} : { projectId: options.projectId }),
        ...(options.conversationId === undefined ? {} : { conversationId: options.conversationId }),
        query: options.query,
        limit: 20,
      }),
    enabled: options.enabled,
    staleTime: 5_000,
    placeholderData: (previous) => previous,
  });
}

/** A search over a project's knowledge (full text, hybrid when configured); runs when `query` is set. */
export function useKnowledgeSearch(projectId: string | null, query: string): UseQueryResult<RetrievalResult> {
  const { api } = useServices();
  return useQuery({
    queryKey: [KNOWLEDGE_KEY, 'search', projectId, query],
    queryFn: () => api.searchKnowledge({ query, project_id: projectId, top_k: 10 }),
    enabled: query.trim() !== '',
  });
}
