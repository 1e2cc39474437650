import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { KnowledgeScope, Upload } from '@youyou/contracts';

/** A file on its way into a message. */
export interface PendingAttachment {
  localId: string;
  name: string;
  size: number;
  mediaType: string;
  /** An object URL for an image preview. */
  previewUrl?: string;
  status: 'uploading' | 'ready' | 'error';
  upload?: Upload;
  error?: string;
  /** In a project: whether the file joins the project's knowledge (default) or stays in the conversation. */
  knowledgeScope?: KnowledgeScope;
}

/**
 * Drafts per conversation ("" for a new one), so switching conversations — or reloading — keeps
 * what was typed. Texts persist in localStorage; attachments (object URLs, uploads) do not.
 */
export const useComposerStore = create<{
  drafts: Record<string, string>;
  attachments: Record<string, PendingAttachment[]>;
  setDraft: (key: string, text: string) => void;
  addAttachment: (key: string, attachment: PendingAttachment) => void;
  updateAttachment: (key: string, localId: string, changes: Partial<PendingAttachment>) => void;
  removeAttachment: (key: string, localId: string) => void;
  clear: (key: string) => void;
  /** Puts a draft back after a send that failed, unless something new was typed meanwhile. */
  restore: (key: string, text: string, attachments: readonly PendingAttachment[]) => void;
}>()(
  persist(
    (set) => ({
      drafts: {},
      attachments: {},
      setDraft: (key, text) => set((state) => ({ drafts: { ...state.drafts, [key]: text } })),
      addAttachment: (key, attachment) =>
        set((state) => ({
          attachments: { ...state.attachments, [key]: [...(state.attachments[key] ?? []), attachment] },
        })),
      updateAttachment: (key, localId, changes) =>
        set((state) => ({
          attachments: {
            ...state.attachments,
            [key]: (state.attachments[key] ?? []).map((item) =>
              item.localId === localId ? { ...item, ...changes } : item,
            ),
          },
        })),
      removeAttachment: (key, localId) =>
        set((state) => {
          const removed = (state.attachments[key] ?? []).find((item) => item.localId === localId);
          if (removed?.previewUrl !== undefined) URL.revokeObjectURL(removed.previewUrl);
          return {
            attachments: {
              ...state.attachments,
              [key]: (state.attachments[key] ?? []).filter((item) => item.localId !== localId),
            },
          };
        }),
      clear: (key) =>
        set((state) => ({
          drafts: { ...state.drafts, [key]: '' },
          attachments: { ...state.attachments, [key]: [] },
        })),
      restore: (key, text, attachments) =>
        set((state) => {
          const typed = state.drafts[key] ?? '';
          return {
            drafts: { ...state.drafts, [key]: typed.trim() === '' ? text : `${text}\n${typed}` },
            attachments: { ...state.attachments, [key]: [...attachments, ...(state.attachments[key] ?? [])] },
          };
        }),
    }),
    {
      name: 'youyou.drafts',
      version: 1,
      partialize: (state) => ({
        drafts: Object.fromEntries(Object.entries(state.drafts).filter(([, text]) => text.trim() !== '')),
      }),
    },
  ),
);
