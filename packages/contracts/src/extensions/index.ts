export {
  apiVersionSupported,
  EXTENSION_API_VERSION,
  parseSemver,
  SEMVER_PATTERN,
  SemverSchema,
} from './api-version.ts';
export {
  DeclarativeHttpToolSchema,
  EXTENSION_TOOL_NAME_PATTERN,
  HTTP_TOOL_LIMITS,
  JsonTemplateSchema,
  TEMPLATE_REFERENCE,
  ToolParametersSchema,
} from './http-tool.ts';
export type {
  DeclarativeHttpTool,
  DeclarativeHttpToolInput,
  JsonTemplate,
  ToolParameters,
} from './http-tool.ts';
export {
  AssetPathSchema,
  DATA_SCOPES,
  DataScopeSchema,
  EXTENSION_ID_PATTERN,
  ExtensionCommandSchema,
  ExtensionIdSchema,
  ExtensionManifestSchema,
  ExtensionPermissionsSchema,
  ExtensionProvidesSchema,
  ExtensionSettingItemSchema,
  extensionSettingKey,
  KnowledgePackSchema,
  MANIFEST_FILE,
  NetworkDomainSchema,
  UiAssetSchema,
} from './manifest.ts';
export type {
  ExtensionCommand,
  ExtensionManifest,
  ExtensionManifestInput,
  ExtensionPermissions,
  ExtensionProvides,
  ExtensionSettingItem,
  KnowledgePack,
  UiAsset,
} from './manifest.ts';
export { EXTENSION_PARSER_LIMITS, ExtensionParserSchema, extensionParserId } from './parser.ts';
export type { ExtensionParser } from './parser.ts';
export {
  WORKFLOW_ERROR_CODES,
  WORKFLOW_ID_PATTERN,
  WorkflowBranchStepSchema,
  WorkflowCardStepSchema,
  WorkflowPromptStepSchema,
  WorkflowSchema,
  WorkflowSetStepSchema,
  WorkflowStepSchema,
  WorkflowToolStepSchema,
} from './workflow.ts';
export type { Workflow, WorkflowErrorCode, WorkflowStep } from './workflow.ts';
export { IntentMatchSchema, IntentSchema, IntentSlotSchema } from './intent.ts';
export {
  DOCUMENT_TEMPLATE_FORMATS,
  DocumentTemplateFrontMatterSchema,
  DocumentTemplateInfoSchema,
  ProfileFromTemplateRequestSchema,
  ProfileTemplateSchema,
} from './templates.ts';
export type { DocumentTemplateInfo, ProfileFromTemplateRequest, ProfileTemplate } from './templates.ts';
export type { Intent, IntentMatch, IntentSlot } from './intent.ts';
export {
  extensionSource,
  REGISTRY_KINDS,
  RegistryEntrySchema,
  RegistryKindSchema,
  RegistryListSchema,
  RegistrySourceSchema,
  RegistrySourceSwitchSchema,
} from './registry.ts';
export type {
  RegistryEntry,
  RegistryKind,
  RegistryList,
  RegistrySource,
  RegistrySourceSwitch,
} from './registry.ts';
export {
  EXTENSION_ERROR_CODES,
  ExtensionCountsSchema,
  ExtensionInstallRequestSchema,
  ExtensionListSchema,
  ExtensionPatchSchema,
  ExtensionPreviewRequestSchema,
  ExtensionPreviewSchema,
  ExtensionProblemSchema,
  ExtensionsChangedPayloadSchema,
  ExtensionStateSchema,
  ExtensionUiEntrySchema,
  ExtensionUiListSchema,
  InstalledExtensionSchema,
} from './api.ts';
export type {
  ExtensionErrorCode,
  ExtensionInstallRequest,
  ExtensionList,
  ExtensionPatch,
  ExtensionPreview,
  ExtensionPreviewRequest,
  ExtensionProblem,
  ExtensionsChangedPayload,
  ExtensionState,
  ExtensionUiEntry,
  InstalledExtension,
} from './api.ts';
export { EXTENSION_AUTHOR_SCHEMAS, extensionAuthorSchemas } from './author-schemas.ts';
