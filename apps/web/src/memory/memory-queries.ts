import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { LiveConversations } from '../conversation-state/index.ts';
import { useServices } from '../services/index.ts';

/** Query keys of memory and context reports. */
export const MEMORY_KEY = ['memories'] as const;
export const MEMORY_SETTINGS_KEY = ['memory-settings'] as const;
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
 * Refetches the memory list when a card is resolved: a memory candidate's card (spec §4.13) may
 * have stored one, in this tab or another.
 *
 * @example
 * const stop = syncMemoryOnCards(live, queryClient);
 */
export function syncMemoryOnCards(live: LiveConversations, queryClient: QueryClient): () => void {
  return live.onEvent((_conversationId, event) => {
    if (event.type === 'hitl.resolved') void queryClient.invalidateQueries({ queryKey: MEMORY_KEY });
  });
}
