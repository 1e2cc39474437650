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
 * Unread: the conversation has events this browser has not shown. A conversation never opened
 * here counts as read (a fresh browser should not show everything as new).
 */
export function isUnread(seen: Readonly<Record<string, number>>, id: string, lastSeq: number): boolean {
  const seenSeq = seen[id];
  return seenSeq !== undefined && lastSeq > seenSeq;
}
