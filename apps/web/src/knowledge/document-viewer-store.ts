import { create } from 'zustand';
import { useLayout } from '../layout/index.ts';

/** Which document the right column's Document tab shows, and at which block. */
export interface DocumentViewer {
  /** A knowledge item, document, upload or artifact id; undefined shows nothing open. */
  documentId: string | undefined;
  block: number | undefined;
  /** Bumped on every open, so opening the same block again scrolls to it again. */
  openCount: number;
  open(documentId: string, block?: number): void;
  close(): void;
}

/**
 * The document viewer's state (Zustand): a citation link opens its document at the block, in the
 * right column's Document tab.
 *
 * @example
 * useDocumentViewer.getState().open('k1', 12);
 */
export const useDocumentViewer = create<DocumentViewer>()((set) => ({
  documentId: undefined,
  block: undefined,
  openCount: 0,
  open: (documentId, block) => {
    useLayout.getState().setActiveTab('document');
    set((state) => ({ documentId, block, openCount: state.openCount + 1 }));
  },
  close: () => set({ documentId: undefined, block: undefined }),
}));
