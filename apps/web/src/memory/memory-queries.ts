import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { LiveConversations } from '../conversation-state/index.ts';
import { useServices } from '../services/index.ts';

/** Query keys of memory and context reports. */
export const MEMORY_KEY = ['memories'] as const;
export const MEMORY_SETTINGS_KEY = ['memory-settings'] as const;
export function memoryCandidatesKey(conversationId: string): readonly ['memory-candidates', string] {
  return ['memory-candidates', conversationId];
}
export function contextReportsKey(runId: string): readonly ['context-reports', string] {
  return ['context-reports', runId];
}

export function useMemorySettings() {
  const { api } = useServices();
  return useQuery({ queryKey: MEMORY_SETTINGS_KEY, queryFn: () => api.memorySettings() });
}

export function useMemories(search: string) {
  const { api } = useServices();
  return useQuery({
    queryKey: [...MEMORY_KEY, search],
    queryFn: () =>
      api.listMemories(search.trim() === '' ? { limit: 500 } : { query: search.trim(), limit: 500 }),
  });
}

/** A conversation's memory candidates (kept current by `syncMemoryCandidates`). */
export function useMemoryCandidates(conversationId: string) {
  const { api } = useServices();
  return useQuery({
    queryKey: memoryCandidatesKey(conversationId),
    queryFn: () => api.memoryCandidates(conversationId),
  });
}

/** What the model saw in each call of a run; fetched only when asked for. */
export function useContextReports(runId: string, enabled: boolean) {
  const { api } = useServices();
  return useQuery({
    queryKey: contextReportsKey(runId),
    queryFn: () => api.contextReports(runId),
    enabled,
  });
}

/**
 * Refetches a conversation's memory candidates when `memory.proposed` or `memory.resolved` arrives
 * (another tab may decide a card), and the memory list when one was accepted.
 *
 * @example
 * const stop = syncMemoryCandidates(live, queryClient);
 */
export function syncMemoryCandidates(live: LiveConversations, queryClient: QueryClient): () => void {
  return live.onEvent((conversationId, event) => {
    if (event.type !== 'memory.proposed' && event.type !== 'memory.resolved') return;
    void queryClient.invalidateQueries({ queryKey: memoryCandidatesKey(conversationId) });
    if (event.type === 'memory.resolved') void queryClient.invalidateQueries({ queryKey: MEMORY_KEY });
  });
}
