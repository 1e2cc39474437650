import type { AgentConfig } from '../config/index.ts';
import type { Logger } from '../logging/index.ts';
import type { Plugin, PluginConfig } from '../plugins/index.ts';
import type { SkillDefinition } from '../skills/index.ts';
import type { ToolHandler } from '../tools/index.ts';

/** Where a component was registered (spec §3.1): project > global > programmatic. */
export type ComponentLayer = 'programmatic' | 'global' | 'project';

export type ComponentKind = 'tool' | 'skill' | 'plugin';

/** A folder that failed to load: skipped, reported, never fatal (spec §6.1). */
export interface LoadDiagnostic {
  path: string;
  reason: string;
  kind?: ComponentKind;
  layer?: Exclude<ComponentLayer, 'programmatic'>;
  /** `error`: the folder was skipped (the default); `warning`: it loaded with something ignored. */
  severity?: 'error' | 'warning';
  /** 1-based line in `path`, when the problem has one. */
  line?: number;
}

/** A plugin from a file layer, with its `index.md` config and `enabled` flag. */
export interface LayeredPlugin {
  plugin: Plugin;
  /** The `config` field of its index.md; replaces the programmatic default whole. */
  config?: PluginConfig;
  enabled: boolean;
  /** Where it lives on disk, for listings. */
  path?: string;
}

/** Components of one file layer. */
export interface LayerComponents {
  tools: readonly { tool: ToolHandler; path?: string }[];
  skills: readonly { skill: SkillDefinition; path?: string }[];
  plugins: readonly LayeredPlugin[];
}

/**
 * What a second registration channel (the `~/.youyou` loader) contributes at build. The builder
 * merges it with programmatic registrations under the same rules.
 */
export interface LoadedComponents {
  global: LayerComponents;
  project: LayerComponents;
  /**
   * Contents of `~/.youyou/AGENT.md`, and of `{cwd}/AGENTS.md` followed by
   * `{cwd}/.youyou/AGENT.md`, when present.
   */
  globalInstructions?: string;
  projectInstructions?: string;
  /** Contents of `~/.youyou/SOUL.md`, when present. */
  soul?: string;
  /** Settings from `config.yaml`; they override programmatic `setConfig` values (spec §3.1). */
  config?: Partial<AgentConfig>;
  /** Runtime plugin enablement toggles: highest priority for file plugins. */
  pluginToggles?: Readonly<Record<string, boolean>>;
  diagnostics: readonly LoadDiagnostic[];
}

/** A registration channel that loads components for a working directory and home. */
export interface ComponentSource {
  /** `logger` is the builder's, for warnings the source meets while its components run. */
  load(options: { cwd: string; home: string; logger?: Logger }): Promise<LoadedComponents>;
}
