export { Continue, HOOK_NAMES, abort, continueWith } from './hook-types.ts';
export type {
  HookData,
  HookHandler,
  HookMutableFields,
  HookName,
  HookPayload,
  HookPayloads,
  HookResult,
  PluginConfig,
} from './hook-types.ts';
export { HookRegistry } from './hook-registry.ts';
export type { HookOutcome, HookTapRecord } from './hook-registry.ts';
