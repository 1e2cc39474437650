import { useMutation } from '@tanstack/react-query';
import { isApiError } from '../api/index.ts';
import type { SendMessage } from '@youyou/contracts';
import { useServices } from '../services/index.ts';
import { CONVERSATIONS_KEY, conversationKey } from '../conversation-state/index.ts';
import { usePreferences } from '../preferences/index.ts';

/**
 * The commands of a conversation (send, regenerate, cancel, switch branch) as mutations; each one
 * tells LiveConversations a run started so its stream stays open even if the person moves on.
 */
export function useConversationActions(conversationId: string | undefined) {
  const { api, live, queryClient } = useServices();
  const modelId = usePreferences((state) => state.modelId);
  const refresh = (): void => {
    if (conversationId !== undefined)
      void queryClient.invalidateQueries({ queryKey: conversationKey(conversationId) });
    void queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY });
  };
  const send = useMutation({
    mutationFn: async ({ id, input }: { id: string; input: SendMessage }) => {
      const response = await api.sendMessage(id, {
        ...(modelId === undefined ? {} : { model_id: modelId }),
        ...input,
      });
      live.markRunning(id);
      return response;
    },
    onSettled: (_data, error, variables) => {
      if (isApiError(error, 'CONVERSATION_BUSY'))
        void queryClient.invalidateQueries({ queryKey: conversationKey(variables.id) });
      void queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY });
    },
  });
  const regenerate = useMutation({
    mutationFn: async (messageId: string) => {
      if (conversationId === undefined) throw new Error('no conversation');
      const response = await api.regenerate(conversationId, messageId, modelId);
      live.markRunning(conversationId);
      return response;
    },
  });
  const cancel = useMutation({
    mutationFn: (runId: string) => api.cancelRun(runId),
  });
  const selectBranch = useMutation({
    mutationFn: async (messageId: string) => {
      if (conversationId === undefined) return undefined;
      return api.selectBranch(conversationId, messageId);
    },
    // The answer is the Query of the branch now shown: no second request.
    onSuccess: (view) => {
      if (view !== undefined && conversationId !== undefined)
        queryClient.setQueryData(conversationKey(conversationId), view);
      void queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY });
    },
    onError: refresh,
  });
  return { send, regenerate, cancel, selectBranch };
}

export type ConversationActions = ReturnType<typeof useConversationActions>;
