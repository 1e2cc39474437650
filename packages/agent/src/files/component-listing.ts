import type { ComponentKind, ComponentLayer } from '../components/index.ts';
import type { FileScan } from './file-component-source.ts';
import type { LayerScan } from './layer-scan.ts';

/**
 * One component as the component manager shows it (spec §9): where it comes from and whether a
 * higher layer overrides it. Same shape as the entries of `agent.components()`.
 *
 * @example
 * const entry: FileComponentEntry = {
 *   kind: 'tool', name: 'grep', layer: 'global', path: '/home/me/.youyou/tools/grep',
 *   overriddenBy: 'project', enabled: true, description: 'Searches files.',
 * };
 */
export interface FileComponentEntry {
  kind: ComponentKind;
  name: string;
  layer: ComponentLayer;
  path?: string;
  overriddenBy?: ComponentLayer;
  /**
   * Whether it is in effect: false when overridden; for file plugins, the runtime toggle when set,
   * else this layer's `enabled` field (spec §3.5); true otherwise.
   */
  enabled: boolean;
  description: string;
}

/**
 * Lists the file layers of a scan, project entries first within each kind, every global entry
 * that a project entry of the same name overrides marked `overriddenBy: 'project'`.
 *
 * @example
 * const entries = listFileComponents(await scanFileComponents({ cwd, home }));
 */
export function listFileComponents(scan: FileScan): FileComponentEntry[] {
  const entries: FileComponentEntry[] = [];
  const projectNames = namesOf(scan.project);
  for (const [layer, layerScan] of [
    ['project', scan.project],
    ['global', scan.global],
  ] as const) {
    const overriddenBy = (kind: ComponentKind, name: string): ComponentLayer | undefined =>
      layer === 'global' && projectNames[kind].has(name) ? 'project' : undefined;
    for (const { definition, directory } of layerScan.tools) {
      entries.push(
        entry(
          'tool',
          definition.name,
          layer,
          directory,
          overriddenBy('tool', definition.name),
          true,
          definition.description,
        ),
      );
    }
    for (const { definition, directory } of layerScan.skills) {
      entries.push(
        entry(
          'skill',
          definition.name,
          layer,
          directory,
          overriddenBy('skill', definition.name),
          true,
          definition.description,
        ),
      );
    }
    for (const { definition, directory } of layerScan.plugins) {
      const enabled = scan.pluginToggles[definition.id] ?? definition.enabled;
      const description = definition.description === '' ? definition.displayName : definition.description;
      entries.push(
        entry(
          'plugin',
          definition.id,
          layer,
          directory,
          overriddenBy('plugin', definition.id),
          enabled,
          description,
        ),
      );
    }
  }
  const order: Record<ComponentKind, number> = { tool: 0, skill: 1, plugin: 2 };
  return entries.sort(
    (left, right) => order[left.kind] - order[right.kind] || left.name.localeCompare(right.name),
  );
}

function entry(
  kind: ComponentKind,
  name: string,
  layer: ComponentLayer,
  path: string,
  overriddenBy: ComponentLayer | undefined,
  enabled: boolean,
  description: string,
): FileComponentEntry {
  const result: FileComponentEntry = {
    kind,
    name,
    layer,
    path,
    enabled: enabled && overriddenBy === undefined,
    description,
  };
  if (overriddenBy !== undefined) result.overriddenBy = overriddenBy;
  return result;
}

function namesOf(scan: LayerScan): Record<ComponentKind, Set<string>> {
  return {
    tool: new Set(scan.tools.map((tool) => tool.definition.name)),
    skill: new Set(scan.skills.map((skill) => skill.definition.name)),
    plugin: new Set(scan.plugins.map((plugin) => plugin.definition.id)),
  };
}
