export {
  ConversationSchema,
  ConversationPageSchema,
  ConversationCreateSchema,
  ConversationUpdateSchema,
  ConversationViewSchema,
  SendMessageSchema,
  RegenerateSchema,
  SendResultSchema,
  ReadSchema,
  BranchSchema,
  EventPageSchema,
} from './conversations.ts';
export type {
  Conversation,
  ConversationPage,
  ConversationCreate,
  ConversationUpdate,
  ConversationView,
  SendMessage,
  Regenerate,
  SendResult,
  ReadCursor,
  BranchSwitch,
  EventPage,
} from './conversations.ts';
export { ProjectSchema, ProjectCreateSchema, ProjectUpdateSchema } from './projects.ts';
export type { Project, ProjectCreate, ProjectUpdate } from './projects.ts';
export {
  ProviderKindSchema,
  ProviderModelSchema,
  ProviderSchema,
  ProviderCreateSchema,
  ProviderUpdateSchema,
  ProviderTestSchema,
  ProviderProbeSchema,
  OllamaDetectionSchema,
  DefaultModelSchema,
  ModelOptionSchema,
  ModelListSchema,
} from './providers.ts';
export type {
  ProviderKind,
  ProviderModel,
  Provider,
  ProviderCreate,
  ProviderUpdate,
  ProviderTest,
  ProviderProbe,
  OllamaDetection,
  DefaultModel,
  ModelOption,
  ModelList,
} from './providers.ts';
export {
  ComponentKindSchema,
  FileLayerSchema,
  ComponentLayerSchema,
  ComponentEntrySchema,
  ComponentDiagnosticSchema,
  ComponentListSchema,
  ComponentDocumentSchema,
  ComponentCreateSchema,
  ComponentUpdateSchema,
  PluginToggleSchema,
  PluginEnabledSchema,
  OptionalLocationQuerySchema,
  ComponentLocationQuerySchema,
} from './components.ts';
export type {
  ComponentKind,
  FileLayer,
  ComponentLayer,
  ComponentEntry,
  ComponentDiagnostic,
  ComponentList,
  ComponentDocument,
  ComponentCreate,
  ComponentUpdate,
  PluginToggle,
  PluginEnabled,
  OptionalLocationQuery,
  ComponentLocationQuery,
} from './components.ts';
export {
  HealthSchema,
  UserPreferencesSchema,
  PreferencesSchema,
  SettingsSchemaSchema,
  SettingsSchema,
  UsageSchema,
} from './system.ts';
export type {
  Health,
  PreferencesBody,
  SettingsSchemaListing,
  Settings,
  Usage,
  UserPreferences,
} from './system.ts';
export { UploadSchema } from './uploads.ts';
export type { Upload } from './uploads.ts';
