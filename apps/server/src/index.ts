// The public surface of @youyou/server.
export {
  startServer,
  resolveServerOptions,
  DEFAULT_PORT,
  SERVER_VERSION,
  BUILD_MANIFEST,
} from './server/index.ts';
export type { BuildManifest } from './server/index.ts';
export type { RunningServer, ServerOptions, ResolvedServerOptions } from './server/index.ts';
export {
  COMMAND_EXIT,
  migrateCommand,
  MIGRATE_HELP,
  serveCommand,
  SERVE_HELP,
  versionCommand,
} from './cli/index.ts';
export type { CommandIo } from './cli/index.ts';
export { BACKUP_HELP, backupCommand, RESTORE_HELP, restoreCommand } from './backup/index.ts';
export { BUNDLE_FILE, buildServerBundle, escapeNonAscii } from './bundle/index.ts';
export { createApp } from './http/index.ts';
export type { ServerServices, HttpConfig } from './http/index.ts';
export {
  migrateDown,
  migrateToLatest,
  knownMigrations,
  openDatabase,
  NodeSqliteDatabase,
} from './database/index.ts';
export type { WorkbenchDatabase, MigrationReport, DialectName } from './database/index.ts';
export { WorkbenchSessionStorage } from './storage/index.ts';
export { SqlMemoryStorage } from './memory/index.ts';
export { assembleRequest } from './context/index.ts';
export type { AssemblyInput, AssemblyResult } from './context/index.ts';
export { EventHub, EventLog } from './events/index.ts';
export { ApiError, HTTP_STATUS_BY_CODE, ALL_ERROR_CODES } from './errors/index.ts';
export type { ApiErrorCode, ErrorBody } from './errors/index.ts';
export { ConversationProjection, applyRunEvent } from '@youyou/contracts';
export type { ConversationMessage, MessagePart, RunProjection } from '@youyou/contracts';
export { toolPolicyOf, planRun } from './runs/index.ts';
export type { RunPlan, RunPlanServices } from './runs/index.ts';
export { SettingsRegistry, SettingsService } from './settings/index.ts';
export type { SettingRegistration } from './settings/index.ts';
export { ModelRouting } from './models/index.ts';
export type { ResolvedModel } from './models/index.ts';
// Events, messages, runs, the projection and the API's shapes are @youyou/contracts'; the client is @youyou/client.
export { ListedMcpServers, mapToolResult, McpManager } from './mcp/index.ts';
export type { McpManagerOptions, McpResultMetadata, McpServerStore } from './mcp/index.ts';
// The built-in file search tool, for the benchmark against ripgrep.
export { searchFilesTool, WorkspaceScope } from './tools/index.ts';
export {
  DocumentService,
  ParserRegistry,
  parseWithPolicy,
  documentForModel,
  BUILTIN_PARSERS,
} from './documents/index.ts';
export type { ParsedListener } from './documents/index.ts';
export {
  KnowledgeRepository,
  KnowledgeRetriever,
  KnowledgeService,
  blockChunker,
  createKnowledge,
  fullTextSearch,
} from './knowledge/index.ts';
export type { KnowledgeDocuments } from './knowledge/index.ts';
export { callHttpTool, ExtensionHost, loadExtension } from './extensions/index.ts';
export type { LiveHttpTool, LoadedExtension } from './extensions/index.ts';
