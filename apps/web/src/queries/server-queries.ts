import { useInfiniteQuery, useMutation, useQuery, type UseQueryResult } from '@tanstack/react-query';
import type {
  ComponentList,
  ConversationView,
  Conversation,
  MessageSearchResult,
  ModelList,
  Project,
  Provider,
} from '@youyou/contracts';
import { useServices } from '../services/index.ts';
import { CONVERSATIONS_KEY, conversationKey } from '../conversation-state/index.ts';

export const PROJECTS_KEY = ['projects'] as const;
export const MODELS_KEY = ['models'] as const;
export const PROVIDERS_KEY = ['providers'] as const;
export const COMPONENTS_KEY = ['components'] as const;

/** Server state through TanStack Query (STYLE.md): one hook per resource, no fetching in effects. */
export function useProjects(): UseQueryResult<Project[]> {
  const { api } = useServices();
  return useQuery({ queryKey: PROJECTS_KEY, queryFn: () => api.listProjects() });
}

/** Conversations, newest first, page by page; a title search when `query` is not empty. */
export function useConversationList(search: string) {
  const { api } = useServices();
  const trimmed = search.trim();
  return useInfiniteQuery({
    queryKey: [...CONVERSATIONS_KEY, { q: trimmed }],
    queryFn: ({ pageParam, signal: _signal }) =>
      api.listConversations({
        ...(trimmed === '' ? {} : { query: trimmed }),
        ...(pageParam === undefined ? {} : { cursor: pageParam }),
        limit: 50,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
    // Runs started elsewhere (another tab, a script) show up in the left column within seconds.
    refetchInterval: 15_000,
  });
}

/** Message text search (not only titles); idle while `search` is empty. */
export function useMessageSearch(search: string): UseQueryResult<MessageSearchResult> {
  const { api } = useServices();
  const trimmed = search.trim();
  return useQuery({
    queryKey: ['message-search', trimmed],
    queryFn: () => api.searchMessages(trimmed, { limit: 20 }),
    enabled: trimmed !== '',
    // A typo'd query is a 400 the list shows as no hits; asking again would not change it.
    retry: false,
  });
}

/** The conversation Query (authoritative message tree, active branch). */
export function useConversationQuery(id: string | undefined): UseQueryResult<ConversationView> {
  const { api } = useServices();
  return useQuery({
    queryKey: conversationKey(id ?? ''),
    queryFn: ({ signal }) => api.getConversation(id ?? '', { signal }),
    enabled: id !== undefined,
    staleTime: 0,
    // Not again right after main.tsx's prefetch on load: the event stream keeps it current.
    refetchOnMount: (query) => Date.now() - query.state.dataUpdatedAt > 2000,
    retry: (count, error) =>
      count < 2 && !(error instanceof Error && 'status' in error && error.status === 404),
  });
}

export function useModels(): UseQueryResult<ModelList> {
  const { api } = useServices();
  return useQuery({ queryKey: MODELS_KEY, queryFn: () => api.listModels() });
}

export function useProviders(): UseQueryResult<Provider[]> {
  const { api } = useServices();
  return useQuery({ queryKey: PROVIDERS_KEY, queryFn: () => api.listProviders() });
}

export function useComponents(projectId: string | undefined): UseQueryResult<ComponentList> {
  const { api } = useServices();
  return useQuery({
    queryKey: [...COMPONENTS_KEY, projectId ?? null],
    queryFn: () => api.listComponents(projectId),
  });
}

/** Creates a conversation (in the selected project) and returns it. */
export function useCreateConversation() {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: (input: { projectId?: string | null; title?: string; profileId?: string }) =>
      api.createConversation(input),
    onSuccess: (conversation: Conversation) => {
      void queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY });
      return conversation;
    },
  });
}
