import type { ToolHandler } from '@youyou/agent';
import type { UiPanel } from '@youyou/contracts';

/** A command an action may name: runs with the action's arguments, answers with text. */
export interface UiCommandHandler {
  name: string;
  run(
    argumentsMap: Readonly<Record<string, unknown>>,
    context: { conversationId: string | undefined; signal: AbortSignal },
  ): Promise<{ output: string; isError?: boolean }>;
}

/**
 * What provides UI surfaces: one per source (`extension:<id>`, `builtin`, …). The extension host
 * registers one per enabled extension and removes it when the extension is disabled or removed.
 */
export interface UiSurfaceProvider {
  source: string;
  /** The panels shown now, in the order they should appear. */
  panels(): readonly UiPanel[] | Promise<readonly UiPanel[]>;
  /** The tool an action of this source may call by that name, if the source declares it. */
  tool?(name: string): ToolHandler | undefined;
  /** The command an action of this source may run by that name, if the source declares it. */
  command?(name: string): UiCommandHandler | undefined;
}

/**
 * The one registry of UI surfaces (spec §4.1 principle 4, §4.6): panels for the right column and
 * the tools and commands their actions may call, by source. With nothing registered the workbench
 * has no panels (the T0 baseline).
 *
 * @example
 * const unregister = registry.register({ source: 'extension:weather', panels: () => [panel], tool: (name) => tools.get(name) });
 * await registry.panels(); // [panel]
 * unregister();
 */
export class UiSurfaceRegistry {
  readonly #providers = new Map<string, UiSurfaceProvider>();

  /** Adds (or replaces) the provider of a source; returns the function that removes it. */
  register(provider: UiSurfaceProvider): () => void {
    this.#providers.set(provider.source, provider);
    return () => {
      if (this.#providers.get(provider.source) === provider) this.#providers.delete(provider.source);
    };
  }

  has(source: string): boolean {
    return this.#providers.has(source);
  }

  /** Every panel of every source; a provider that fails is skipped and reported through `onError`. */
  async panels(onError?: (source: string, error: unknown) => void): Promise<UiPanel[]> {
    const lists = await Promise.all(
      [...this.#providers.values()].map(async (provider) => {
        try {
          return (await provider.panels()).map((panel) => ({ ...panel, source: provider.source }));
        } catch (error) {
          onError?.(provider.source, error);
          return [];
        }
      }),
    );
    return lists.flat();
  }

  tool(source: string, name: string): ToolHandler | undefined {
    return this.#providers.get(source)?.tool?.(name);
  }

  command(source: string, name: string): UiCommandHandler | undefined {
    return this.#providers.get(source)?.command?.(name);
  }
}
