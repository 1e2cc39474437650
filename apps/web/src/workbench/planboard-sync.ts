import type { QueryClient } from '@tanstack/react-query';
import type { PlanboardView } from '@youyou/contracts';
import type { LiveConversations } from '../conversation-state/index.ts';
import { useLayout } from '../layout/index.ts';
import { useNavigation } from '../navigation/index.ts';

/** The query key of a conversation's planboard. */
export function planboardKey(conversationId: string): readonly ['planboard', string] {
  return ['planboard', conversationId];
}

/**
 * Keeps each conversation's planboard query current from its live `plan.update` / `todo.update`
 * events (each carries the whole list with a version; an older version never overwrites a newer
 * one), and opens the Plan tab the first time a plan arrives in the conversation on screen (the
 * view's or the live stream's, whichever switched first) — or
 * when that conversation comes on screen, if its first plan arrived before (a new conversation's
 * first answer can plan before the view has switched to it).
 *
 * @example
 * const stop = syncPlanboards(live, queryClient);
 */
export function syncPlanboards(live: LiveConversations, queryClient: QueryClient): () => void {
  const firstPlanUnseen = new Set<string>();
  const stopWatchingNavigation = useNavigation.subscribe((state) => {
    if (state.conversationId !== undefined && firstPlanUnseen.delete(state.conversationId))
      useLayout.getState().setActiveTab('plan');
  });
  const stopListening = live.onEvent((conversationId, event) => {
    if (event.type !== 'plan.update' && event.type !== 'todo.update') return;
    const key = planboardKey(conversationId);
    const current = queryClient.getQueryData<PlanboardView>(key);
    if (event.type === 'plan.update') {
      // The conversation's first plan, whether or not the planboard was already fetched with it.
      if (event.payload.version === 1) {
        // On screen by either account: the view may have navigated before the live stream
        // refocused, and then no later navigation would open the tab.
        const onScreen =
          conversationId === live.focused || conversationId === useNavigation.getState().conversationId;
        if (onScreen) useLayout.getState().setActiveTab('plan');
        else firstPlanUnseen.add(conversationId);
      }
      if (current !== undefined && current.plan.version >= event.payload.version) return;
      queryClient.setQueryData<PlanboardView>(key, {
        plan: {
          steps: event.payload.steps,
          version: event.payload.version,
          ...(event.payload.explanation === undefined ? {} : { explanation: event.payload.explanation }),
        },
        todos: current?.todos ?? { items: [], version: 0 },
      });
      return;
    }
    if (current !== undefined && current.todos.version >= event.payload.version) return;
    queryClient.setQueryData<PlanboardView>(key, {
      plan: current?.plan ?? { steps: [], version: 0 },
      todos: { items: event.payload.todos, version: event.payload.version },
    });
  });
  return () => {
    stopListening();
    stopWatchingNavigation();
  };
}
