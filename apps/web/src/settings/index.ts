export { ComponentForm } from './component-form.tsx';
export {
  draftOf,
  frontMatterOf,
  needsTrustWarning,
  parseParameters,
  previewEntry,
  validateComponentForm,
} from './component-draft.ts';
export type { ComponentFormValues } from './component-draft.ts';
export { headerLines, parseHeaderLines } from './connection-fields.tsx';
export { PROVIDER_NAME_PATTERN, PROVIDER_PRESETS, parseModelList } from './provider-presets.ts';
export type { ProviderPreset } from './provider-presets.ts';
export { SettingsDialog } from './settings-dialog.tsx';
