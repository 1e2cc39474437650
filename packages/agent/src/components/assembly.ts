import { DEFAULT_AGENT_CONFIG, type AgentConfig } from '../config/index.ts';
import { validateConfig } from '../config/index.ts';
import { HookRegistry, type HookTapRecord } from '../hooks/index.ts';
import type { Logger } from '../logging/index.ts';
import { applyPlugin, type AppliedPlugin } from '../plugins/index.ts';
import type { Plugin, PluginConfig } from '../plugins/index.ts';
import type { PromptSources } from '../prompt/index.ts';
import type { SkillDefinition } from '../skills/index.ts';
import { ToolDispatcher } from '../tools/index.ts';
import type { ComponentSource, LoadDiagnostic, LoadedComponents } from './component-source.ts';
import { composeComponents, type ComponentInfo, type ProgrammaticComponents } from './compose-components.ts';

/** Everything a session runs with that comes from registration: fixed for the session's life. */
export interface ComponentSnapshot {
  config: AgentConfig;
  dispatcher: ToolDispatcher;
  skills: ReadonlyMap<string, SkillDefinition>;
  hooks: HookRegistry;
  prompt: Omit<PromptSources, 'cwd'>;
  listing: readonly ComponentInfo[];
  diagnostics: readonly LoadDiagnostic[];
  /**
   * The programmatic plugins in effect, with their merged config: a plugin a same-id file plugin
   * overrides is not here, and never initialises (spec §3.1, §3.5).
   */
  programmaticPlugins: readonly { plugin: Plugin; config: PluginConfig }[];
}

export interface AssemblyInput {
  programmatic: ProgrammaticComponents;
  programmaticConfig: Partial<AgentConfig>;
  sources: readonly ComponentSource[];
  cwd: string;
  home: string;
  logger: Logger;
}

/** Loads every source and merges what they hold; several sources merge layer by layer, in order. */
export async function loadSources(
  input: Pick<AssemblyInput, 'sources' | 'cwd' | 'home' | 'logger'>,
): Promise<LoadedComponents | undefined> {
  if (input.sources.length === 0) return undefined;
  const loaded = await Promise.all(
    input.sources.map((source) => source.load({ cwd: input.cwd, home: input.home, logger: input.logger })),
  );
  return loaded.reduce((merged, next) => ({
    global: mergeLayer(merged.global, next.global),
    project: mergeLayer(merged.project, next.project),
    ...pick('globalInstructions', merged, next),
    ...pick('projectInstructions', merged, next),
    ...pick('soul', merged, next),
    config: { ...merged.config, ...next.config },
    pluginToggles: { ...merged.pluginToggles, ...next.pluginToggles },
    diagnostics: [...merged.diagnostics, ...next.diagnostics],
  }));
}

function mergeLayer(
  a: LoadedComponents['global'],
  b: LoadedComponents['global'],
): LoadedComponents['global'] {
  return {
    tools: [...a.tools, ...b.tools],
    skills: [...a.skills, ...b.skills],
    plugins: [...a.plugins, ...b.plugins],
  };
}

function pick<K extends 'globalInstructions' | 'projectInstructions' | 'soul'>(
  key: K,
  a: LoadedComponents,
  b: LoadedComponents,
): Partial<Pick<LoadedComponents, K>> {
  const value = b[key] ?? a[key];
  return value === undefined ? {} : ({ [key]: value } as Partial<Pick<LoadedComponents, K>>);
}

/** The effective configuration: defaults < programmatic `setConfig` < `config.yaml` (spec §3.1). */
export function effectiveConfig(
  programmatic: Partial<AgentConfig>,
  loaded: LoadedComponents | undefined,
): AgentConfig {
  const merged = {
    ...DEFAULT_AGENT_CONFIG,
    ...definedOnly(programmatic),
    ...definedOnly(loaded?.config ?? {}),
  } as AgentConfig;
  return validateConfig(merged);
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}

/**
 * Builds a snapshot from registrations and loaded files. Programmatic plugins were applied once at
 * build (`applied`); file plugins are applied here, so each new session sees the files as they are.
 * Without `applied` it only validates: no plugin is applied.
 */
export function assemble(
  input: AssemblyInput,
  loaded: LoadedComponents | undefined,
  applied?: ReadonlyMap<Plugin, AppliedPlugin>,
): ComponentSnapshot {
  const config = effectiveConfig(input.programmaticConfig, loaded);
  const composed = composeComponents(input.programmatic, loaded, config.pluginConfigs);
  const taps: HookTapRecord[] = [];
  for (const { plugin, config: pluginConfig } of applied === undefined ? [] : composed.plugins) {
    const pluginTaps = (applied?.get(plugin) ?? applyPlugin(plugin)).taps;
    for (const tap of pluginTaps) taps.push({ ...tap, pluginConfig });
  }
  const hooks = new HookRegistry(taps, input.logger);
  return {
    config,
    dispatcher: new ToolDispatcher(composed.tools, hooks, config.toolTimeoutMs),
    skills: composed.skills,
    hooks,
    prompt: {
      baseInstructions: config.baseInstructions,
      ...(loaded?.globalInstructions === undefined ? {} : { globalInstructions: loaded.globalInstructions }),
      ...(loaded?.projectInstructions === undefined
        ? {}
        : { projectInstructions: loaded.projectInstructions }),
      ...(loaded?.soul === undefined ? {} : { soul: loaded.soul }),
      tools: composed.tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
      })),
      skills: [...composed.skills.values()].filter((skill) => skill.allowImplicitInvocation),
      plugins: composed.plugins.map(({ plugin }) => ({
        displayName: plugin.displayName,
        description: plugin.description,
      })),
    },
    listing: composed.listing,
    diagnostics: loaded?.diagnostics ?? [],
    programmaticPlugins: composed.plugins
      .filter((entry) => entry.layer === 'programmatic')
      .map(({ plugin, config: pluginConfig }) => ({ plugin, config: pluginConfig })),
  };
}
