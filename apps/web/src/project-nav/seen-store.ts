import { create } from 'zustand';
import { persist } from 'zustand/middleware';

/** The last seq seen of each conversation, for the unread mark (kept in this browser). */
export const useSeen = create<{
  seen: Record<string, number>;
  markSeen: (id: string, seq: number) => void;
}>()(
  persist(
    (set) => ({
      seen: {},
      markSeen: (id, seq) =>
        set((state) => ((state.seen[id] ?? -1) >= seq ? state : { seen: { ...state.seen, [id]: seq } })),
    }),
    { name: 'youyou.seen', version: 1 },
  ),
);

/**
 * Unread: the conversation has events its reader has not seen — by the server's read cursor
 * (shared by every browser) when it has one, else by what this browser showed. A conversation
 * never opened here and without a cursor counts as read.
 */
export function isUnread(
  seen: Readonly<Record<string, number>>,
  conversation: { id: string; last_seq: number; read_seq?: number | undefined },
): boolean {
  if (conversation.read_seq !== undefined) return conversation.last_seq > conversation.read_seq;
  const seenSeq = seen[conversation.id];
  return seenSeq !== undefined && conversation.last_seq > seenSeq;
}
