import { create } from 'zustand';
import { useLayout } from '../layout/index.ts';
import { useNavigation } from '../navigation/index.ts';

/** Which artifact the right column shows, and which sub-agent the tracker shows. */
export interface WorkbenchUi {
  /** The artifact open in the Artifacts tab; undefined shows the list. */
  artifactId: string | undefined;
  /** The version shown; undefined follows the newest. */
  artifactVersion: number | undefined;
  /** The conversation the open artifact belongs to: another conversation shows its own list. */
  artifactConversationId: string | undefined;
  /** The last live artifact write the viewer followed (`id@version`), so each write opens once. */
  followedArtifact: string | undefined;
  /** The tracker popup is open. */
  trackerOpen: boolean;
  /** The sub-agent run selected in the tracker. */
  trackerRunId: string | undefined;
  /** Selects the sub-agent spawned by this tool call once the tree knows it. */
  trackerCallId: string | undefined;
}

interface WorkbenchUiActions {
  /** Shows an artifact in the right column (opening it and its Artifacts tab). */
  openArtifact(id: string, version?: number): void;
  closeArtifact(): void;
  setArtifactVersion(version: number | undefined): void;
  /** Opens an artifact the agent just wrote, once per write (`mark` is `id@version`). */
  followArtifact(id: string, mark: string): void;
  openTracker(selection?: { runId?: string; callId?: string }): void;
  closeTracker(): void;
  selectAgent(runId: string | undefined): void;
}

/**
 * Small UI state the message parts, the workbench tabs and the tracker share (Zustand): an
 * artifact chip opens the viewer, an agent badge opens the tracker on its sub-agent.
 *
 * @example
 * useWorkbenchUi.getState().openArtifact(artifactId);
 */
export const useWorkbenchUi = create<WorkbenchUi & WorkbenchUiActions>()((set) => ({
  artifactId: undefined,
  artifactVersion: undefined,
  artifactConversationId: undefined,
  followedArtifact: undefined,
  trackerOpen: false,
  trackerRunId: undefined,
  trackerCallId: undefined,
  openArtifact: (id, version) => {
    useLayout.getState().setActiveTab('artifacts');
    set({
      artifactId: id,
      artifactVersion: version,
      artifactConversationId: useNavigation.getState().conversationId,
    });
  },
  closeArtifact: () =>
    set({ artifactId: undefined, artifactVersion: undefined, artifactConversationId: undefined }),
  setArtifactVersion: (version) => set({ artifactVersion: version }),
  followArtifact: (id, mark) =>
    set((state) =>
      state.followedArtifact === mark
        ? state
        : {
            artifactId: id,
            // The newest version: the one just written.
            artifactVersion: undefined,
            artifactConversationId: useNavigation.getState().conversationId,
            followedArtifact: mark,
          },
    ),
  openTracker: (selection = {}) =>
    set({ trackerOpen: true, trackerRunId: selection.runId, trackerCallId: selection.callId }),
  closeTracker: () => set({ trackerOpen: false }),
  selectAgent: (runId) => set({ trackerRunId: runId, trackerCallId: undefined }),
}));
