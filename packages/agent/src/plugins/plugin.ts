import type { HookHandler, HookName, PluginConfig } from '../hooks/index.ts';

export type { PluginConfig };

/** What `apply` receives: the only way to put a handler on a hook (spec §3.6). */
export interface HookTap {
  tap<H extends HookName>(hook: H, handler: HookHandler<H>): void;
}

/**
 * A consumer of lifecycle hooks (spec §3.5). `initialize` runs at build in registration order,
 * `apply` taps hooks, `shutdown` runs at agent shutdown in reverse order.
 *
 * @example
 * const audit: Plugin = {
 *   id: 'audit',
 *   displayName: 'Audit',
 *   description: 'Logs every tool call.',
 *   apply(hooks) {
 *     hooks.tap('AfterToolUse', ({ toolName, durationMs }) => console.log(toolName, durationMs));
 *   },
 * };
 */
export interface Plugin {
  readonly id: string;
  readonly displayName: string;
  readonly description: string;
  initialize?(config: PluginConfig): void | Promise<void>;
  apply(hooks: HookTap): void;
  shutdown?(): void | Promise<void>;
}
