import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { LEFT_COLUMN_LIMITS, RIGHT_COLUMN_LIMITS } from './column-resize.ts';

/** The built-in right-column tabs. */
export type BuiltinTab = 'plan' | 'todos' | 'artifacts' | 'agents' | 'document';
export const WORKBENCH_TABS: readonly BuiltinTab[] = ['plan', 'todos', 'artifacts', 'agents', 'document'];
/** An extension panel's tab (spec §4.4: extensions may register more tabs): `panel:<panel id>`. */
export type PanelTabId = `panel:${string}`;
export type WorkbenchTab = BuiltinTab | PanelTabId;

/** Whether a value names a tab: a built-in one, or a panel's. */
export function isWorkbenchTab(value: unknown): value is WorkbenchTab {
  return (
    (typeof value === 'string' && WORKBENCH_TABS.includes(value as BuiltinTab)) ||
    (typeof value === 'string' && /^panel:.{1,200}$/.test(value))
  );
}

/** Whether a tab is an extension panel's. */
export function isPanelTab(tab: WorkbenchTab): tab is PanelTabId {
  return tab.startsWith('panel:');
}

/** Layout preferences (spec §4.15): column widths and collapse, right-column tabs. */
export interface Layout {
  leftWidth: number;
  leftCollapsed: boolean;
  rightWidth: number;
  rightCollapsed: boolean;
  /** Tab order; hidden tabs stay listed here so their place is kept. */
  tabOrder: WorkbenchTab[];
  hiddenTabs: WorkbenchTab[];
  activeTab: WorkbenchTab;
}

export const DEFAULT_LAYOUT: Layout = {
  leftWidth: 272,
  leftCollapsed: false,
  rightWidth: 340,
  rightCollapsed: true,
  tabOrder: [...WORKBENCH_TABS],
  hiddenTabs: [],
  activeTab: 'artifacts',
};

/**
 * How wide the window is: `wide` (≥ 1200 px) shows three columns in flow; `medium` (900–1199 px)
 * floats the right column over the conversation and keeps the left one as its rail unless the user
 * opens it; `narrow` (< 900 px) floats both. Not persisted: it follows the window.
 */
export type Viewport = 'wide' | 'medium' | 'narrow';

export const VIEWPORT_BREAKPOINTS = { medium: 1200, narrow: 900 } as const;

/** The viewport class of a window width. */
export function viewportOf(width: number): Viewport {
  if (width < VIEWPORT_BREAKPOINTS.narrow) return 'narrow';
  if (width < VIEWPORT_BREAKPOINTS.medium) return 'medium';
  return 'wide';
}

/** State that follows the window and the moment, never saved. */
interface TransientLayout {
  viewport: Viewport;
  /** In a medium or narrow window, the left column is open over its rail (the saved choice is kept). */
  compactLeftOpen: boolean;
  /** In a medium or narrow window, the right column floats open over the conversation. */
  compactRightOpen: boolean;
}

interface LayoutActions {
  setViewport: (viewport: Viewport) => void;
  /** Closes whatever floats over the conversation (medium and narrow windows). */
  closeOverlays: () => void;
  setLeft: (state: { width: number; collapsed: boolean }) => void;
  toggleLeft: () => void;
  setRight: (state: { width: number; collapsed: boolean }) => void;
  toggleRight: () => void;
  setActiveTab: (tab: WorkbenchTab) => void;
  moveTab: (tab: WorkbenchTab, offset: -1 | 1) => void;
  /** Replaces the order (the right column adds panel tabs the stored order does not know yet). */
  setTabOrder: (order: readonly WorkbenchTab[]) => void;
  setTabHidden: (tab: WorkbenchTab, hidden: boolean) => void;
  merge: (fromServer: Readonly<Record<string, unknown>>) => void;
}

/** Moves a tab one place left or right. */
export function moveInOrder<Item>(order: readonly Item[], item: Item, offset: -1 | 1): Item[] {
  const index = order.indexOf(item);
  const target = index + offset;
  if (index === -1 || target < 0 || target >= order.length) return [...order];
  const next = [...order];
  next[index] = next[target] as Item;
  next[target] = item;
  return next;
}

/** Picks the valid layout fields out of anything (server or old localStorage). */
export function sanitizeLayout(input: Readonly<Record<string, unknown>>): Partial<Layout> {
  const output: Partial<Layout> = {};
  const number = (value: unknown, min: number, max: number): number | undefined =>
    typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : undefined;
  const leftWidth = number(input['leftWidth'], LEFT_COLUMN_LIMITS.min, LEFT_COLUMN_LIMITS.max);
  if (leftWidth !== undefined) output.leftWidth = leftWidth;
  const rightWidth = number(input['rightWidth'], RIGHT_COLUMN_LIMITS.min, RIGHT_COLUMN_LIMITS.max);
  if (rightWidth !== undefined) output.rightWidth = rightWidth;
  if (typeof input['leftCollapsed'] === 'boolean') output.leftCollapsed = input['leftCollapsed'];
  if (typeof input['rightCollapsed'] === 'boolean') output.rightCollapsed = input['rightCollapsed'];
  const tabs = (value: unknown): WorkbenchTab[] | undefined =>
    Array.isArray(value) ? value.filter(isWorkbenchTab) : undefined;
  const saved = tabs(input['tabOrder']);
  // An order saved before the document viewer existed gets it at the end.
  const order = saved === undefined || saved.includes('document') ? saved : [...saved, 'document' as const];
  if (
    order !== undefined &&
    WORKBENCH_TABS.every((tab) => order.includes(tab)) &&
    new Set(order).size === order.length
  ) {
    output.tabOrder = order;
  }
  const hidden = tabs(input['hiddenTabs']);
  if (hidden !== undefined) output.hiddenTabs = hidden;
  if (isWorkbenchTab(input['activeTab'])) output.activeTab = input['activeTab'];
  return output;
}

/**
 * The layout in a small Zustand store, persisted to localStorage and (through preferences-sync)
 * to the server: the two writes of spec §4.4.
 *
 * @example
 * useLayout.getState().toggleLeft();
 */
export const useLayout = create<Layout & TransientLayout & LayoutActions>()(
  persist(
    (set) => ({
      ...DEFAULT_LAYOUT,
      viewport: typeof window === 'undefined' ? 'wide' : viewportOf(window.innerWidth),
      compactLeftOpen: false,
      compactRightOpen: false,
      setViewport: (viewport) =>
        set((state) =>
          state.viewport === viewport ? {} : { viewport, compactLeftOpen: false, compactRightOpen: false },
        ),
      closeOverlays: () => set({ compactLeftOpen: false, compactRightOpen: false }),
      setLeft: ({ width, collapsed }) => set({ leftWidth: width, leftCollapsed: collapsed }),
      toggleLeft: () =>
        set((state) =>
          state.viewport === 'wide'
            ? { leftCollapsed: !state.leftCollapsed }
            : { compactLeftOpen: !isLeftOpen(state), compactRightOpen: false },
        ),
      setRight: ({ width, collapsed }) => set({ rightWidth: width, rightCollapsed: collapsed }),
      toggleRight: () =>
        set((state) =>
          state.viewport === 'wide'
            ? { rightCollapsed: !state.rightCollapsed }
            : { compactRightOpen: !state.compactRightOpen, compactLeftOpen: false },
        ),
      setActiveTab: (tab) =>
        set((state) =>
          state.viewport === 'wide'
            ? { activeTab: tab, rightCollapsed: false }
            : { activeTab: tab, compactRightOpen: true, compactLeftOpen: false },
        ),
      moveTab: (tab, offset) => set((state) => ({ tabOrder: moveInOrder(state.tabOrder, tab, offset) })),
      setTabOrder: (order) => set({ tabOrder: [...new Set(order)] }),
      setTabHidden: (tab, hidden) =>
        set((state) => ({
          hiddenTabs: hidden
            ? [...new Set([...state.hiddenTabs, tab])]
            : state.hiddenTabs.filter((item) => item !== tab),
        })),
      merge: (fromServer) => set(sanitizeLayout(fromServer)),
    }),
    {
      name: 'youyou.layout',
      version: 1,
      partialize: (state) => layoutOf(state),
      merge: (persisted, current) => ({
        ...current,
        ...sanitizeLayout((persisted ?? {}) as Record<string, unknown>),
      }),
    },
  ),
);

/** Whether the left column shows whole (not as its rail), in this window. */
export function isLeftOpen(state: Layout & TransientLayout): boolean {
  return state.viewport === 'wide' ? !state.leftCollapsed : state.compactLeftOpen;
}

/** Whether the right column shows, in this window. */
export function isRightOpen(state: Layout & TransientLayout): boolean {
  return state.viewport === 'wide' ? !state.rightCollapsed : state.compactRightOpen;
}

/** The layout without the actions, for syncing. */
export function layoutOf(state: Layout): Layout {
  return {
    leftWidth: state.leftWidth,
    leftCollapsed: state.leftCollapsed,
    rightWidth: state.rightWidth,
    rightCollapsed: state.rightCollapsed,
    tabOrder: state.tabOrder,
    hiddenTabs: state.hiddenTabs,
    activeTab: state.activeTab,
  };
}
