import type { ToolContext } from '@youyou/agent';
import type { RunBindings } from '../run-bindings/index.ts';
import { WorkspaceScope } from './workspace-scope.ts';

/** The scope of the run a tool call belongs to. */
export type ScopeOf = (context: ToolContext) => Promise<WorkspaceScope>;

/**
 * The scope for a call: the run's project directory and its conversation's uploads, or the agent's
 * working directory alone when the call does not belong to a workbench run.
 *
 * @example
 * const scopeOf = scopeResolver(bindings);
 * const scope = await scopeOf(context);
 */
export function scopeResolver(bindings: RunBindings): ScopeOf {
  return async (context) => {
    const binding = bindings.get(context.sessionId);
    if (binding === undefined) return WorkspaceScope.create(context.cwd, []);
    return WorkspaceScope.create(binding.cwd, await binding.uploadFiles());
  };
}
