import { HOOK_NAMES } from '../hooks/index.ts';
import type { HookName } from '../hooks/index.ts';
import type { PluginConfig } from '../plugins/index.ts';
import { FrontMatterReader } from './front-matter-reader.ts';
import type { EntryReadResult } from './front-matter-reader.ts';
import type { FrontMatterDocument } from './front-matter.ts';
import { readScriptCommand } from './script-command.ts';
import type { ScriptCommand } from './script-command.ts';
import { readMatchingName } from './tool-entry.ts';

/**
 * A plugin as its `index.md` declares it (spec §5.5): one script per hook.
 *
 * @example
 * const definition: FilePluginDefinition = {
 *   id: 'audit',
 *   displayName: 'Audit',
 *   description: 'Logs every tool call.',
 *   enabled: true,
 *   hooks: { AfterToolUse: { command: './log.sh', args: [] } },
 * };
 */
export interface FilePluginDefinition {
  id: string;
  displayName: string;
  description: string;
  enabled: boolean;
  config?: PluginConfig;
  hooks: Partial<Record<HookName, ScriptCommand>>;
}

const PLUGIN_FIELDS: ReadonlySet<string> = new Set([
  'version',
  'id',
  'display_name',
  'enabled',
  'config',
  'hooks',
]);

/**
 * Reads a plugin `index.md`. An unknown hook name is a warning (that hook is ignored), so a
 * misspelt hook is visible in `youyou doctor` instead of silently never running.
 *
 * @example
 * const parsed = parseFrontMatter(text);
 * if (parsed.ok) readPluginEntry(parsed.value, 'audit');
 */
export function readPluginEntry(
  document: FrontMatterDocument,
  folderName: string,
): EntryReadResult<FilePluginDefinition> {
  const reader = new FrontMatterReader(document);
  reader.version();
  reader.warnUnknownKeys([], PLUGIN_FIELDS);
  const id = readMatchingName(reader, 'id', folderName);
  const displayName = reader.string(['display_name'], { required: true });
  const enabled = reader.boolean(['enabled'], true);
  const config = reader.mapping(['config']);
  const hooks: Partial<Record<HookName, ScriptCommand>> = {};
  const hookMapping = reader.mapping(['hooks']);
  for (const hookName of Object.keys(hookMapping ?? {})) {
    if (!(HOOK_NAMES as readonly string[]).includes(hookName)) {
      reader.warn(
        ['hooks', hookName],
        `unknown hook \`${hookName}\` ignored (hooks are ${HOOK_NAMES.join(', ')})`,
      );
      continue;
    }
    const command = readScriptCommand(reader, ['hooks', hookName], { required: true });
    if (command !== undefined) hooks[hookName as HookName] = command;
  }
  if (id === undefined || displayName === undefined) return reader.failure();
  const definition: FilePluginDefinition = {
    id,
    displayName: displayName.trim(),
    description: document.body.trim(),
    enabled,
    hooks,
  };
  if (config !== undefined) definition.config = config;
  return reader.result(definition);
}
