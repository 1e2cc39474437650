import type { ComponentSource, Plugin, ToolHandler } from '@youyou/agent';
import type { WorkbenchDatabase } from '../database/index.ts';
import { askUserTool, type HitlService } from '../hitl/index.ts';
import {
  planboardPlugin,
  updatePlanTool,
  updateTodosTool,
  type PlanboardRepository,
} from '../planboard/index.ts';
import type { SettingsRepository } from '../storage/index.ts';
import { currentTimeTool } from './current-time.ts';
import { listFilesTool } from './list-files.ts';
import { readFileTool } from './read-file.ts';
import type { RunBindings } from '../run-bindings/index.ts';
import { searchFilesTool } from './search-files.ts';
import { searchHistoryTool } from './search-history.ts';
import type { ToolCatalog } from './tool-catalog.ts';
import type { ToolGrantRepository } from './tool-grants.ts';
import { toolPolicyPlugin } from './tool-policy-plugin.ts';
import { scopeResolver } from './tool-scope.ts';

/** The user setting the web UI fills in from the browser: the zone `current_time` answers in. */
export const TIME_ZONE_SETTING = 'time_zone';

export interface WorkbenchToolsetOptions {
  database: WorkbenchDatabase;
  settings: SettingsRepository;
  catalog: ToolCatalog;
  bindings: RunBindings;
  hitl: HitlService;
  grants: ToolGrantRepository;
  planboards: PlanboardRepository;
}

/**
 * The workbench's built-in tools (spec §4.8) and its plugins (confirmation policy, planboard
 * notes), as the agent pool adds them to every agent it builds. Tools disabled in settings are
 * left out; with all of them disabled the agent is the plain chat (T0).
 *
 * @example
 * const toolset = new WorkbenchToolset(options);
 * const { tools, plugins } = await toolset.components();
 */
export class WorkbenchToolset {
  readonly #options: WorkbenchToolsetOptions;
  readonly #builtins: readonly ToolHandler[];

  constructor(options: WorkbenchToolsetOptions) {
    this.#options = options;
    const { database, settings, bindings, hitl, planboards, catalog } = options;
    const scopeOf = scopeResolver(bindings);
    this.#builtins = [
      readFileTool(scopeOf),
      listFilesTool(scopeOf),
      searchFilesTool(scopeOf),
      searchHistoryTool({ db: database.db, dialect: database.dialect, bindings }),
      currentTimeTool(async () => settings.get<string>('user', '', TIME_ZONE_SETTING)),
      askUserTool({ hitl, bindings }),
      updatePlanTool({ bindings, planboards }),
      updateTodosTool({ bindings, planboards }),
    ];
    for (const tool of this.#builtins) {
      // The planboard tools change only the workbench's own state: no confirmation by default.
      catalog.remember(
        tool,
        'builtin',
        tool.name === 'update_plan' || tool.name === 'update_todos' ? 'auto' : undefined,
      );
    }
  }

  get builtins(): readonly ToolHandler[] {
    return this.#builtins;
  }

  /**
   * Other tools the workbench registers programmatically (artifacts …). `internal` ones change only
   * the workbench's own, versioned state and run without confirmation by default.
   */
  register(tools: readonly ToolHandler[], options: { internal: boolean }): void {
    for (const tool of tools) {
      this.#options.catalog.remember(tool, 'builtin', options.internal ? 'auto' : undefined);
    }
  }

  /** The enabled built-in tools and the plugins, for an agent built now. */
  async components(): Promise<{
    tools: ToolHandler[];
    plugins: Plugin[];
    enabled: (name: string) => boolean;
  }> {
    const { catalog, bindings, hitl, grants, planboards } = this.#options;
    const stored = await catalog.stored();
    const enabled = (name: string): boolean => catalog.enabledIn(stored, name);
    return {
      enabled,
      tools: this.#builtins.filter((tool) => enabled(tool.name)),
      plugins: [
        toolPolicyPlugin({ catalog, bindings, hitl, grants }),
        planboardPlugin({ bindings, planboards }),
      ],
    };
  }

  wrapSource(source: ComponentSource): ComponentSource {
    return this.#options.catalog.wrapSource(source);
  }

  fingerprint(): Promise<string> {
    return this.#options.catalog.fingerprint();
  }
}
