import { AgentError } from '../errors/index.ts';
import type { Plugin, PluginConfig } from '../plugins/index.ts';
import type { SkillDefinition } from '../skills/index.ts';
import type { ToolHandler } from '../tools/index.ts';
import type { ComponentKind, ComponentLayer, LayerComponents, LoadedComponents } from './component-source.ts';

/** A registered component as listings show it (spec §9). */
export interface ComponentInfo {
  kind: ComponentKind;
  name: string;
  description: string;
  layer: ComponentLayer;
  /** The higher layer whose same-name component replaced this one. */
  overriddenBy?: ComponentLayer;
  /** False for disabled file plugins and for overridden components. */
  enabled: boolean;
  path?: string;
}

export interface EffectivePlugin {
  plugin: Plugin;
  layer: ComponentLayer;
  config: PluginConfig;
}

export interface ComposedComponents {
  tools: ToolHandler[];
  skills: Map<string, SkillDefinition>;
  /** Enabled plugins in hook order: programmatic in registration order, then global, then project. */
  plugins: EffectivePlugin[];
  listing: ComponentInfo[];
}

export interface ProgrammaticComponents {
  tools: readonly ToolHandler[];
  skills: readonly SkillDefinition[];
  plugins: readonly { plugin: Plugin; defaultConfig: PluginConfig }[];
}

const LAYERS: readonly ComponentLayer[] = ['programmatic', 'global', 'project'];
const EMPTY_LAYER: LayerComponents = { tools: [], skills: [], plugins: [] };

interface Candidate<T> {
  item: T;
  name: string;
  description: string;
  layer: ComponentLayer;
  path?: string;
}

/**
 * Merges the layers (spec §3.1, §6.1): a name twice in one layer is NAME_CONFLICT; across layers
 * the higher one wins and the lower is listed as overridden; skills must find their tools in the
 * merged result (SKILL_DEPENDENCY_NOT_MET); plugin config is config.yaml > index.md > default.
 */
export function composeComponents(
  programmatic: ProgrammaticComponents,
  loaded: LoadedComponents | undefined,
  pluginConfigs: Readonly<Record<string, PluginConfig>>,
): ComposedComponents {
  const layer = (name: ComponentLayer): LayerComponents =>
    name === 'programmatic' ? EMPTY_LAYER : (loaded?.[name] ?? EMPTY_LAYER);
  const listing: ComponentInfo[] = [];

  const tools = resolve<ToolHandler>(
    'tool',
    LAYERS.flatMap((name): Candidate<ToolHandler>[] =>
      name === 'programmatic'
        ? programmatic.tools.map((tool) => ({
            item: tool,
            name: tool.name,
            description: tool.description,
            layer: name,
          }))
        : layer(name).tools.map(({ tool, path }) =>
            withPath({ item: tool, name: tool.name, description: tool.description, layer: name }, path),
          ),
    ),
    listing,
  );
  const skills = resolve<SkillDefinition>(
    'skill',
    LAYERS.flatMap((name): Candidate<SkillDefinition>[] =>
      name === 'programmatic'
        ? programmatic.skills.map((skill) => ({
            item: skill,
            name: skill.name,
            description: skill.description,
            layer: name,
          }))
        : layer(name).skills.map(({ skill, path }) =>
            withPath({ item: skill, name: skill.name, description: skill.description, layer: name }, path),
          ),
    ),
    listing,
  );

  interface PluginCandidateItem {
    plugin: Plugin;
    defaultConfig: PluginConfig;
    fileConfig?: PluginConfig;
    enabled: boolean;
  }
  const toggles = loaded?.pluginToggles ?? {};
  const plugins = resolve<PluginCandidateItem>(
    'plugin',
    LAYERS.flatMap((name): Candidate<PluginCandidateItem>[] =>
      name === 'programmatic'
        ? programmatic.plugins.map(({ plugin, defaultConfig }) => ({
            item: { plugin, defaultConfig, enabled: true },
            name: plugin.id,
            description: plugin.description,
            layer: name,
          }))
        : layer(name).plugins.map((entry) =>
            withPath(
              {
                item: {
                  plugin: entry.plugin,
                  defaultConfig: {},
                  ...(entry.config === undefined ? {} : { fileConfig: entry.config }),
                  enabled: entry.enabled,
                },
                name: entry.plugin.id,
                description: entry.plugin.description,
                layer: name,
              },
              entry.path,
            ),
          ),
    ),
    listing,
  );

  const toolNames = new Set(tools.map((tool) => tool.item.name));
  for (const { item: skill, layer: skillLayer } of skills) {
    const missing = skill.requiredTools.filter((tool) => !toolNames.has(tool));
    if (missing.length > 0) {
      throw new AgentError(
        'SKILL_DEPENDENCY_NOT_MET',
        `Skill '${skill.name}' (${skillLayer}) needs tool${missing.length > 1 ? 's' : ''} ${missing.map((name) => `'${name}'`).join(', ')}, which ${missing.length > 1 ? 'are' : 'is'} not registered.`,
        { details: { skill: skill.name, missingTools: missing } },
      );
    }
  }

  const effectivePlugins: EffectivePlugin[] = [];
  for (const { item, layer: pluginLayer, name } of plugins) {
    // Programmatic plugins are always on; file plugins: runtime toggle > index.md `enabled`.
    const enabled = pluginLayer === 'programmatic' ? true : (toggles[name] ?? item.enabled);
    const entry = listing.find(
      (info) => info.kind === 'plugin' && info.name === name && info.layer === pluginLayer,
    );
    if (entry !== undefined) entry.enabled = enabled;
    if (!enabled) continue;
    effectivePlugins.push({
      plugin: item.plugin,
      layer: pluginLayer,
      config: pluginConfigs[name] ?? item.fileConfig ?? item.defaultConfig,
    });
  }

  return {
    tools: tools.map((tool) => tool.item),
    skills: new Map(skills.map((skill) => [skill.name, skill.item])),
    plugins: effectivePlugins,
    listing,
  };
}

function withPath<T>(candidate: Candidate<T>, path: string | undefined): Candidate<T> {
  return path === undefined ? candidate : { ...candidate, path };
}

/** The winners in layer order (lowest first, then registration order); losers go to the listing. */
function resolve<T>(
  kind: ComponentKind,
  candidates: readonly Candidate<T>[],
  listing: ComponentInfo[],
): Candidate<T>[] {
  const seen = new Set<string>();
  const winner = new Map<string, Candidate<T>>();
  for (const candidate of candidates) {
    const key = `${candidate.layer}\u0000${candidate.name}`;
    if (seen.has(key)) {
      throw new AgentError(
        'NAME_CONFLICT',
        `Two ${kind}s named '${candidate.name}' are registered in the ${candidate.layer} layer; names must be unique within a layer.`,
        { details: { kind, name: candidate.name, layer: candidate.layer } },
      );
    }
    seen.add(key);
    winner.set(candidate.name, candidate);
  }
  for (const candidate of candidates) {
    const top = winner.get(candidate.name);
    const overridden = top !== undefined && top !== candidate;
    listing.push({
      kind,
      name: candidate.name,
      description: candidate.description,
      layer: candidate.layer,
      enabled: !overridden,
      ...(overridden ? { overriddenBy: top.layer } : {}),
      ...(candidate.path === undefined ? {} : { path: candidate.path }),
    });
  }
  return candidates.filter((candidate) => winner.get(candidate.name) === candidate);
}
