export { ConversationRepository, conversationOfRow } from './conversations.ts';
export type { ConversationListOptions, ConversationRow, ConversationSummary } from './conversations.ts';
export { ObjectStore } from './object-store.ts';
export { decodeCursor, encodeCursor, likePattern } from './page-cursor.ts';
export type { PageCursor } from './page-cursor.ts';
export { ProjectRepository, projectOfRow } from './projects.ts';
export type { Project, ProjectRow } from './projects.ts';
export { ProviderConfigRepository, providerOptionsOfRow, providerViewOfRow } from './provider-configs.ts';
export type {
  ConfiguredModel,
  ProviderConfigRow,
  ProviderOptions,
  ProviderView,
} from './provider-configs.ts';
export { describeRun, RunRepository, runViewOfRow } from './runs.ts';
export type { RunRow, RunView, TreeRun } from './runs.ts';
export { loadSecretKey, SecretStore } from './secrets.ts';
export { WorkbenchSessionStorage } from './session-storage.ts';
export { SettingsRepository } from './settings.ts';
export type { SettingScope } from './settings.ts';
export { UploadRepository, uploadViewOfRow } from './uploads.ts';
export type { UploadRow, UploadView } from './uploads.ts';
export { UsageRepository } from './usage.ts';
export type { UsageGrouping, UsageTotal } from './usage.ts';
