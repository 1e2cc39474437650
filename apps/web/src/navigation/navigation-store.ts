import { create } from 'zustand';

/**
 * A page of the settings centre: the id of a section of the server's settings schema (the pages
 * themselves, and their order, come from there).
 */
export type SettingsSection = string;
const SETTINGS_PAGE_ID = /^[a-z][a-z0-9_-]{0,59}$/;

/** Where the person is: the conversation shown and the settings section, mirrored in the URL hash. */
export interface Navigation {
  conversationId: string | undefined;
  /** The project new conversations go into. */
  projectId: string | undefined;
  settings: SettingsSection | undefined;
}

/** `#/c/<id>` and `#/settings/<section>` ↔ Navigation. */
export function parseHash(hash: string): Pick<Navigation, 'conversationId' | 'settings'> {
  const path = hash.replace(/^#\/?/, '');
  const [head, second] = path.split('/');
  if (head === 'c' && second !== undefined && second !== '') {
    return { conversationId: decodeURIComponent(second), settings: undefined };
  }
  if (head === 'settings') {
    const section = second !== undefined && SETTINGS_PAGE_ID.test(second) ? second : 'providers';
    return { conversationId: undefined, settings: section };
  }
  return { conversationId: undefined, settings: undefined };
}

export function hashOf(navigation: Pick<Navigation, 'conversationId' | 'settings'>): string {
  if (navigation.settings !== undefined) return `#/settings/${navigation.settings}`;
  if (navigation.conversationId !== undefined) return `#/c/${encodeURIComponent(navigation.conversationId)}`;
  return '#/';
}

interface NavigationActions {
  openConversation: (id: string | undefined) => void;
  selectProject: (id: string | undefined) => void;
  openSettings: (section?: SettingsSection) => void;
  closeSettings: () => void;
}

/**
 * The navigation in a small Zustand store; `syncNavigationWithLocation` keeps it and the hash in
 * step (back/forward work; a reload lands where it was).
 *
 * @example
 * useNavigation.getState().openConversation('c1');
 */
export const useNavigation = create<
  Navigation & NavigationActions & { lastConversationId: string | undefined }
>()((set) => ({
  conversationId: undefined,
  lastConversationId: undefined,
  projectId: undefined,
  settings: undefined,
  openConversation: (id) => set({ conversationId: id, lastConversationId: id, settings: undefined }),
  selectProject: (id) => set({ projectId: id }),
  openSettings: (section) => set({ settings: section ?? 'providers' }),
  closeSettings: () => set({ settings: undefined }),
}));

/** Two-way binding between the store and `location.hash`; returns the unbinding function. */
export function syncNavigationWithLocation(target: Window): () => void {
  const fromHash = (): void => {
    const parsed = parseHash(target.location.hash);
    const state = useNavigation.getState();
    if (parsed.settings !== undefined) {
      useNavigation.setState({ settings: parsed.settings });
      return;
    }
    if (parsed.conversationId !== state.conversationId || state.settings !== undefined) {
      useNavigation.setState({
        conversationId: parsed.conversationId,
        lastConversationId: parsed.conversationId ?? state.lastConversationId,
        settings: undefined,
      });
    }
  };
  fromHash();
  target.addEventListener('hashchange', fromHash);
  const unsubscribe = useNavigation.subscribe((state) => {
    const hash = hashOf(state);
    if (target.location.hash !== hash && !(hash === '#/' && target.location.hash === '')) {
      target.history.pushState(null, '', hash);
    }
  });
  return () => {
    target.removeEventListener('hashchange', fromHash);
    unsubscribe();
  };
}
