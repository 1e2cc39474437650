import { create } from 'zustand';

/** A message to bring into view once its conversation shows it (a message search hit). */
export interface MessageFocus {
  target: { conversationId: string; messageId: string } | undefined;
  focus: (conversationId: string, messageId: string) => void;
  clear: () => void;
}

/**
 * Where the message list should scroll next; the list clears it once the message is in view.
 *
 * @example
 * useMessageFocus.getState().focus('c1', 'm1');
 */
export const useMessageFocus = create<MessageFocus>()((set) => ({
  target: undefined,
  focus: (conversationId, messageId) => set({ target: { conversationId, messageId } }),
  clear: () => set({ target: undefined }),
}));
