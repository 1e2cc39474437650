import { AgentError } from '../errors/index.ts';
import type { HookTapRecord } from '../hooks/index.ts';
import type { HookHandler, HookName } from '../hooks/index.ts';
import { HOOK_NAMES } from '../hooks/index.ts';
import type { Logger } from '../logging/index.ts';
import type { Plugin, PluginConfig } from './plugin.ts';

/** A plugin after `apply`: the handlers it tapped, ready to be composed into a session's registry. */
export interface AppliedPlugin {
  plugin: Plugin;
  taps: readonly Omit<HookTapRecord, 'pluginConfig'>[];
}

/** Calls `apply` with a tap that records handlers instead of installing them. */
export function applyPlugin(plugin: Plugin): AppliedPlugin {
  const taps: Omit<HookTapRecord, 'pluginConfig'>[] = [];
  plugin.apply({
    tap: (hook, handler) => {
      if (!(HOOK_NAMES as readonly string[]).includes(hook)) {
        throw new AgentError(
          'INVALID_INPUT',
          `Plugin '${plugin.id}' tapped unknown hook '${String(hook)}'.`,
          {
            source: 'plugin',
            details: { pluginId: plugin.id, hook },
          },
        );
      }
      taps.push({ hook: hook as HookName, pluginId: plugin.id, handler: handler as HookHandler<HookName> });
    },
  });
  return { plugin, taps };
}

/**
 * Runs the programmatic plugin lifecycle (spec §3.5, §4.6): `initialize` in registration order —
 * a failure shuts down those already initialised and throws PLUGIN_INIT_FAILED — then `apply`;
 * `shutdown` later in reverse order.
 */
export class PluginLifecycle {
  readonly #initialized: Plugin[] = [];
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /**
   * Initialises, then applies, `plugins`. At build a failure shuts down every plugin initialised so
   * far; later (`rollbackOnFailure: false`) it leaves the running ones alone.
   */
  async initialize(
    plugins: readonly { plugin: Plugin; config: PluginConfig }[],
    options: { rollbackOnFailure: boolean } = { rollbackOnFailure: true },
  ): Promise<AppliedPlugin[]> {
    for (const { plugin, config } of plugins) {
      try {
        await plugin.initialize?.(config);
      } catch (error) {
        if (options.rollbackOnFailure) await this.shutdown();
        throw new AgentError(
          'PLUGIN_INIT_FAILED',
          `Plugin '${plugin.id}' failed to initialize: ${errorMessage(error)}`,
          {
            source: 'plugin',
            cause: error,
            details: { pluginId: plugin.id },
          },
        );
      }
      this.#initialized.push(plugin);
    }
    try {
      return plugins.map(({ plugin }) => applyPlugin(plugin));
    } catch (error) {
      if (options.rollbackOnFailure) await this.shutdown();
      throw AgentError.fromUnknown(error, 'PLUGIN_INIT_FAILED', { source: 'plugin' });
    }
  }

  /** Shuts down in reverse order; a failing shutdown is logged and the rest still run. */
  async shutdown(): Promise<void> {
    while (this.#initialized.length > 0) {
      const plugin = this.#initialized.pop();
      if (plugin === undefined) break;
      try {
        await plugin.shutdown?.();
      } catch (error) {
        this.#logger.error({ pluginId: plugin.id, error: errorMessage(error) }, 'plugin shutdown failed');
      }
    }
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
