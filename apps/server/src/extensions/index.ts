export {
  archiveKind,
  PACKAGE_LIMITS,
  PackageError,
  stageFromPath,
  unpackArchive,
} from './extension-files.ts';
export { ExtensionHost } from './extension-host.ts';
export type { ExtensionHostOptions } from './extension-host.ts';
export { INTENT_GATE_SYSTEM_PROMPT, IntentGate } from './intent-gate.ts';
export type { IntentDecider, MessageIntent } from './intent-gate.ts';
export { countsOf, loadExtension } from './extension-loader.ts';
export type { LoadedExtension, LoadOptions, LoadResult, UiSchemaCheck } from './extension-loader.ts';
export { ExtensionRepository } from './extension-repository.ts';
export { callHttpTool, capText, hostAllowed, httpToolHandler } from './http-tool.ts';
export type { LiveHttpTool } from './http-tool.ts';
export { parseSelection, select } from './json-path.ts';
export { registryList } from './registry-list.ts';
export { documentTemplatesOf, profileTemplatesOf } from './template-catalog.ts';
export type { DocumentTemplate } from './template-catalog.ts';
