import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import type {
  KnowledgeDocumentPage,
  KnowledgeList,
  ReferenceCandidate,
  RetrievalResult,
} from '@youyou/contracts';
import { useServices } from '../services/index.ts';

const KNOWLEDGE_KEY = 'knowledge';

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

/** A whole document's blocks, for the viewer. */
export function useKnowledgeDocument(documentId: string | undefined): UseQueryResult<KnowledgeDocumentPage> {
  const { api } = useServices();
  return useQuery({
    queryKey: [KNOWLEDGE_KEY, 'document', documentId],
    queryFn: () => api.readKnowledgeDocument(documentId ?? ''),
    enabled: documentId !== undefined,
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
