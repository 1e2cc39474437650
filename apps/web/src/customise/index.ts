export {
  COMMANDS_KEY,
  PROFILES_KEY,
  SETTINGS_KEY,
  useCommands,
  useEffectiveSettings,
  useMacros,
  useProfiles,
  useSettingsSchema,
  useSnippets,
  useWorkbenchEvents,
} from './customise-queries.ts';
export { LibrarySection } from './library-section.tsx';
export { NewConversationProfilePicker, ProfilePicker } from './profile-picker.tsx';
export { ProfilesSection } from './profiles-section.tsx';
