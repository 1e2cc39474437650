import { extensionSource, fillTemplate, type ExtensionUiEntry } from '@youyou/contracts';
import type { UiSurfaceRegistry } from '../ui-surfaces/index.ts';
import type { LoadedExtension } from './extension-loader.ts';
import { isActive, type Installed } from './installed-extension.ts';

/**
 * The extension as one provider of the UI-surface registry: its right-column panels and the tools
 * and commands their actions call, each looked up while the extension is active. Returns what
 * removes it.
 */
export function registerExtensionSurface(registry: UiSurfaceRegistry, entry: Installed): () => void {
  const id = entry.record.id;
  return registry.register({
    source: extensionSource(id),
    panels: () =>
      (isActive(entry) ? (entry.loaded?.panels ?? []) : []).map((panel) => ({
        id: `${id}.${panel.id}`,
        source: extensionSource(id),
        title: panel.title,
        schema: panel.schema,
      })),
    tool: (name) => (isActive(entry) ? entry.handlers.get(name) : undefined),
    command: (name) => {
      const command = isActive(entry) ? entry.loaded?.commands.find((item) => item.name === name) : undefined;
      if (command === undefined) return undefined;
      return {
        name,
        run: (argumentsMap) => {
          if (command.template === undefined)
            // A workflow command runs from the composer (the run's workflowCommand); a panel's
            // action cannot start a run of its own.
            return Promise.resolve({
              output: 'Error [WORKFLOW_NOT_FOUND]: workflows cannot run here.',
              isError: true,
            });
          const values = Object.fromEntries(
            Object.entries(argumentsMap).map(([key, value]) => [
              key,
              typeof value === 'string' ? value : JSON.stringify(value),
            ]),
          );
          return Promise.resolve({ output: fillTemplate(command.template, values) });
        },
      };
    },
  });
}

/** Panels, cards and forms of these extensions, for the UI-schema renderer. */
export function uiEntriesOf(extensions: readonly LoadedExtension[]): ExtensionUiEntry[] {
  return extensions.flatMap((extension) => {
    const of = (kind: ExtensionUiEntry['kind'], assets: LoadedExtension['panels']) =>
      assets.map((asset) => ({
        kind,
        id: asset.id,
        extension_id: extension.manifest.id,
        title: asset.title,
        schema: asset.schema,
      }));
    return [...of('panel', extension.panels), ...of('card', extension.cards), ...of('form', extension.forms)];
  });
}
