export { applyAppearance, resolveTheme } from './apply-appearance.ts';
export {
  DEFAULT_PREFERENCES,
  FONT_SIZES,
  preferencesOf,
  sanitizePreferences,
  usePreferences,
} from './preferences-store.ts';
export type {
  Density,
  FoldPreference,
  Language,
  Preferences,
  SendKey,
  ThemePreference,
} from './preferences-store.ts';
export { useSystemDark } from './use-appearance.ts';
