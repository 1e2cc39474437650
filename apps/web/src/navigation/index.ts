export {
  SETTINGS_SECTIONS,
  hashOf,
  parseHash,
  syncNavigationWithLocation,
  useNavigation,
} from './navigation-store.ts';
export type { Navigation, SettingsSection } from './navigation-store.ts';
