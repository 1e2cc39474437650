import { extensionSettingKey, type ExtensionProblem } from '@youyou/contracts';
import { DEFAULT_SETTINGS_PAGE, type SettingsRegistry } from '../settings/index.ts';
import type { LoadedExtension } from './extension-loader.ts';

/** The extension's settings as one section of the settings schema, keyed under its id. */
export function registerExtensionSettings(registry: SettingsRegistry, extension: LoadedExtension): void {
  const id = extension.manifest.id;
  // An extension's settings are a section of Preferences, not a page of their own.
  registry.registerSection({ id, label: extension.manifest.name, order: 2000, page: DEFAULT_SETTINGS_PAGE });
  for (const [order, item] of extension.manifest.settings.entries()) {
    registry.register({
      order,
      key: extensionSettingKey(id, item.key),
      section: id,
      source: 'extension',
      source_id: id,
      schema: item.schema,
      effect: item.effect,
      label: item.label,
      help: item.help,
      secret: item.secret,
      // A secret is read from the user layer only (it goes into request headers).
      layers: item.secret ? ['user'] : ['user', 'project'],
    });
  }
}

export function unregisterExtensionSettings(registry: SettingsRegistry, id: string): void {
  registry.unregister('extension', id);
}

/** Setting keys the extension would take that another source registered. */
export function settingConflicts(registry: SettingsRegistry, extension: LoadedExtension): ExtensionProblem[] {
  const id = extension.manifest.id;
  const problems: ExtensionProblem[] = [];
  for (const item of extension.manifest.settings) {
    const key = extensionSettingKey(id, item.key);
    const registered = registry.get(key);
    if (registered !== undefined && registered.definition.source_id !== id)
      problems.push({ path: 'extension.json', message: `the setting key '${key}' is taken` });
  }
  return problems;
}
