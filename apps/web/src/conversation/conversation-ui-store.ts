import { create } from 'zustand';

/**
 * View state of the conversation that must outlive a row's mount (rows of a virtual list unmount
 * when scrolled away): which folded runs are open, which user message is being edited.
 */
export const useConversationUi = create<{
  /** Runs whose fold the person toggled away from the preference. */
  toggledRuns: ReadonlySet<string>;
  editingMessageId: string | undefined;
  toggleRun: (runId: string) => void;
  setEditing: (messageId: string | undefined) => void;
}>()((set) => ({
  toggledRuns: new Set(),
  editingMessageId: undefined,
  toggleRun: (runId) =>
    set((state) => {
      const next = new Set(state.toggledRuns);
      if (next.has(runId)) next.delete(runId);
      else next.add(runId);
      return { toggledRuns: next };
    }),
  setEditing: (messageId) => set({ editingMessageId: messageId }),
}));
