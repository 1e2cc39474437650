import {
  extensionSource,
  RegistrySourceSchema,
  type RegistryEntry,
  type RegistryList,
  type ToolSource,
} from '@youyou/contracts';
import { BUILTIN_COMMANDS } from '../library/index.ts';
import type { SettingsRegistry } from '../settings/index.ts';
import type { ToolCatalog } from '../tools/index.ts';
import type { ExtensionHost } from './extension-host.ts';

/** The registry source of a tool (`extension` tools are tagged with their extension by the host). */
function toolRegistrySource(source: ToolSource): RegistryEntry['source'] {
  if (source === 'builtin' || source === 'programmatic') return 'builtin';
  return 'user';
}

/**
 * The unified registry (spec §4.1 rule 4): every tool, command, panel, card, form, workflow,
 * intent, knowledge pack, prompt, profile template, macro, setting and agent-component folder,
 * with its source tag and whether it is active — "what is active and who provides it".
 *
 * @example
 * const { entries, sources } = await registryList({ host, catalog, settingsRegistry });
 */
export async function registryList(parts: {
  host: ExtensionHost;
  catalog: ToolCatalog;
  settingsRegistry: SettingsRegistry;
  /** The document parsers (spec §4.11), each with its source tag. */
  parsers?: {
    list(): readonly { id: string; source: string; available: boolean; formats: readonly string[] }[];
  };
}): Promise<RegistryList> {
  const { host, catalog, settingsRegistry, parsers } = parts;
  const entries: RegistryEntry[] = [];
  const owners = new Map<string, string>();
  for (const id of host.installedIds()) {
    const loaded = host.loadedOf(id);
    if (loaded === undefined) continue;
    const source = extensionSource(id);
    const active = host.sourceEnabled(source);
    const add = (kind: RegistryEntry['kind'], name: string, title?: string) =>
      entries.push({ kind, name, source, active, ...(title === undefined ? {} : { title }) });
    for (const tool of loaded.tools) {
      owners.set(tool.name, source);
      add('tool', tool.name, tool.description);
    }
    for (const command of loaded.commands) add('command', command.name, command.description.en);
    for (const panel of loaded.panels) add('panel', panel.id, panel.title.en);
    for (const card of loaded.cards) add('card', card.id, card.title.en);
    for (const form of loaded.forms) add('form', form.id, form.title.en);
    for (const workflow of loaded.workflows) add('workflow', workflow.id, workflow.title);
    for (const intent of loaded.intents) add('intent', intent.id, intent.title);
    for (const pack of loaded.knowledge) add('knowledge', pack.id, pack.title);
    for (const prompt of loaded.prompts) add('prompt', prompt.id);
    for (const template of loaded.profileTemplates) add('profile_template', template.profile.name);
    for (const template of loaded.documentTemplates) add('document_template', template.id);
    for (const macro of loaded.macros) add('macro', macro.name, macro.description);
    for (const item of loaded.manifest.settings)
      add('setting', `${id.replaceAll('-', '_')}.${item.key}`, item.label.en);
    if (loaded.agentDirectory !== undefined) add('agent_component', 'agent', loaded.manifest.provides.agent);
  }
  for (const tool of await catalog.list()) {
    if (tool.source === 'extension' || owners.has(tool.name)) continue;
    entries.push({
      kind: 'tool',
      name: tool.name,
      source: toolRegistrySource(tool.source),
      active: tool.enabled,
      title: tool.description,
    });
  }
  for (const command of BUILTIN_COMMANDS)
    entries.push({
      kind: 'command',
      name: command.name,
      source: 'builtin',
      active: true,
      title: command.description.en,
    });
  for (const definition of settingsRegistry.definitions()) {
    if (definition.source === 'extension') continue;
    entries.push({
      kind: 'setting',
      name: definition.key,
      source: definition.source === 'profile' ? 'profile' : 'builtin',
      active: true,
      title: definition.label.en,
    });
  }
  for (const parser of parsers?.list() ?? []) {
    const source = RegistrySourceSchema.safeParse(parser.source);
    entries.push({
      kind: 'parser',
      name: parser.id,
      source: source.success ? source.data : 'builtin',
      active: parser.available,
      title: parser.formats.join(', '),
    });
  }
  const counts = new Map<string, number>();
  for (const entry of entries) counts.set(entry.source, (counts.get(entry.source) ?? 0) + 1);
  const sources = ['builtin', 'user', 'profile', ...host.installedIds().map(extensionSource)].map(
    (source) => ({
      source,
      enabled: host.sourceEnabled(source),
      entries: counts.get(source) ?? 0,
    }),
  );
  return { entries, sources };
}
