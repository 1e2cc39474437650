// `@youyou/agent/files`: the ~/.youyou file channel (spec §5) — the loader the builder runs by
// default, the component store a UI edits folders with, and the format constants. The script
// runner, entry readers and path helpers behind them are not part of the surface.
export {
  AGENT_FILE,
  CONFIG_FILE,
  FileComponentSource,
  scanFileComponents,
  SOUL_FILE,
} from './file-component-source.ts';
export type { FileComponentSourceOptions, FileScan } from './file-component-source.ts';
export { ComponentStore } from './component-store.ts';
export type {
  ComponentChanges,
  ComponentDocument,
  ComponentDraft,
  ComponentFile,
  ComponentStoreOptions,
} from './component-store.ts';
export { listFileComponents } from './component-listing.ts';
export type { FileComponentEntry } from './component-listing.ts';
export { COMPONENT_NAME_PATTERN, INDEX_FILE, isValidComponentName, SKILL_FILE } from './component-names.ts';
export { CONFIG_FILE_KEYS, parseConfigFile } from './config-file.ts';
export type { ConfigFileResult } from './config-file.ts';
export type { FileToolDefinition } from './tool-entry.ts';
export type { FilePluginDefinition } from './plugin-entry.ts';
export type { ScriptCommand } from './script-command.ts';
export { createFileTool } from './file-tool.ts';
export type { FileToolOptions } from './file-tool.ts';
export { createFilePlugin } from './file-plugin.ts';
export type { FilePluginOptions } from './file-plugin.ts';
export { PLUGIN_STATE_FILE } from './plugin-state.ts';
export type { PluginToggleScope } from './plugin-state.ts';
export { projectLayerDirectory, resolveYouyouHome } from './youyou-home.ts';
export type { FileChannelLogger } from './file-logger.ts';
export type { FileDiagnosticSeverity, FileLayer, FileLoadDiagnostic } from './file-diagnostic.ts';
