export { hashOf, parseHash, syncNavigationWithLocation, useNavigation } from './navigation-store.ts';
export type { Navigation, SettingsSection } from './navigation-store.ts';
export { useMessageFocus, type MessageFocus } from './message-focus.ts';
