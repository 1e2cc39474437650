import { relative } from 'node:path';
import type { ComponentSource, LoadedComponents } from '@youyou/agent';
import type { FileComponentSource } from '@youyou/agent/files';

/**
 * The agent-framework components (tools, skills, plugins folders) of these extension folders as
 * one global layer, diagnostics named `extension:<id>/<path>`. `folders` is asked on every load,
 * so an extension disabled since start contributes nothing.
 */
export function extensionComponentSource(
  files: FileComponentSource,
  folders: () => Iterable<[id: string, directory: string]>,
): ComponentSource {
  return {
    load: async (options): Promise<LoadedComponents> => {
      const empty = { tools: [], skills: [], plugins: [] };
      const diagnostics: LoadedComponents['diagnostics'][number][] = [];
      const merged = {
        global: { ...empty } as LoadedComponents['global'],
        project: { ...empty },
        diagnostics,
      };
      for (const [id, directory] of folders()) {
        const loaded = await files.load({
          cwd: directory,
          home: directory,
          ...(options.logger === undefined ? {} : { logger: options.logger }),
        });
        merged.global = {
          tools: [...merged.global.tools, ...loaded.global.tools],
          skills: [...merged.global.skills, ...loaded.global.skills],
          plugins: [...merged.global.plugins, ...loaded.global.plugins],
        };
        diagnostics.push(
          ...loaded.diagnostics.map((diagnostic) => ({
            ...diagnostic,
            path: `extension:${id}/${relative(directory, diagnostic.path)}`,
          })),
        );
      }
      return merged;
    },
  };
}
