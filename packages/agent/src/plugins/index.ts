export type { HookTap, Plugin, PluginConfig } from './plugin.ts';
export { applyPlugin, PluginLifecycle } from './plugin-manager.ts';
export type { AppliedPlugin } from './plugin-manager.ts';
