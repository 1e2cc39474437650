// The ~/.youyou file channel (spec §5): loader, entry formats, script protocol, component store.
export {
  FileComponentSource,
  scanFileComponents,
  AGENT_FILE,
  CONFIG_FILE,
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
export { composeEntry, validateEntry } from './component-draft.ts';
export { checkAuxiliaryPath } from './component-paths.ts';
export { COMPONENT_NAME_PATTERN, INDEX_FILE, SKILL_FILE, isValidComponentName } from './component-names.ts';
export { parseConfigFile, CONFIG_FILE_KEYS } from './config-file.ts';
export type { ConfigFileResult } from './config-file.ts';
export { parseFrontMatter } from './front-matter.ts';
export type { FrontMatterDocument, FrontMatterFailure, FrontMatterResult } from './front-matter.ts';
export type { EntryReadResult, FieldIssue } from './front-matter-reader.ts';
export { readToolEntry } from './tool-entry.ts';
export type { FileToolDefinition } from './tool-entry.ts';
export { readAgentSkillEntry, readSkillEntry } from './skill-entry.ts';
export { readPluginEntry } from './plugin-entry.ts';
export type { FilePluginDefinition } from './plugin-entry.ts';
export type { ScriptCommand } from './script-command.ts';
export { scanLayer } from './layer-scan.ts';
export type { LayerScan, ScannedComponent } from './layer-scan.ts';
export { createFileTool } from './file-tool.ts';
export type { FileToolOptions } from './file-tool.ts';
export { createFilePlugin, runHookScript } from './file-plugin.ts';
export type { FilePluginOptions } from './file-plugin.ts';
export { parseHookOutput, toWirePayload } from './hook-wire.ts';
export { runScript } from './script-runner.ts';
export type { ScriptOutcome, ScriptRunOptions, ScriptRunResult } from './script-runner.ts';
export { resolveScriptCommand, quoteForCmd } from './command-resolution.ts';
export type { CommandResolutionInput, ResolvedCommand } from './command-resolution.ts';
export { MAX_SCRIPT_OUTPUT_BYTES } from './bounded-output.ts';
export { PLUGIN_STATE_FILE, readPluginState, writePluginToggle, pluginTogglesFor } from './plugin-state.ts';
export type { PluginState, PluginToggleScope } from './plugin-state.ts';
export { writeFileAtomic } from './atomic-write.ts';
export { resolveYouyouHome, projectLayerDirectory } from './youyou-home.ts';
export type { FileChannelLogger } from './file-logger.ts';
export type { FileDiagnosticSeverity, FileLayer, FileLoadDiagnostic } from './file-diagnostic.ts';
