export { registerBuiltinSettings, BUILTIN_SECTIONS } from './builtin-settings.ts';
export { ConfigYamlLayer } from './config-yaml-layer.ts';
export { mergeValue } from './merge-layers.ts';
export {
  DEFAULT_SETTINGS_PAGE,
  SettingsRegistry,
  type RegisteredSetting,
  type SettingRegistration,
} from './settings-registry.ts';
export {
  RESTART_REPORT_FILE,
  SettingsService,
  type ResolvedSetting,
  type RestartReport,
  type SettingsContext,
  type SettingsServiceOptions,
} from './settings-service.ts';
