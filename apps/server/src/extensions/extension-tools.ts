import type { ToolHandler } from '@youyou/agent';
import { extensionSettingKey, type ExtensionProblem, type FormField } from '@youyou/contracts';
import type { HitlService } from '../hitl/index.ts';
import type { PlanboardRepository } from '../planboard/index.ts';
import type { SettingsService } from '../settings/index.ts';
import type { RunBindings, ToolCatalog } from '../tools/index.ts';
import type { LoadedExtension } from './extension-loader.ts';
import { httpToolHandler, type LiveHttpTool } from './http-tool.ts';
import { isActive, type Installed } from './installed-extension.ts';
import { workflowToolHandler, workflowToolName, type WorkflowServices } from './workflow-tool.ts';

/** What workflows run with (HITL cards, the run of a tool call, the chat model). */
export interface ExtensionWorkflowOptions {
  hitl: HitlService;
  bindings: RunBindings;
  complete: WorkflowServices['complete'];
  planboards?: PlanboardRepository;
}

/** What registering an extension's tools needs from the host. */
export interface ToolRegistration {
  catalog: ToolCatalog;
  settingsService: SettingsService;
  /** Absent: workflows cannot run here, and no workflow tool is registered. */
  workflows: ExtensionWorkflowOptions | undefined;
  /** The extension's entry as installed now: undefined once it is uninstalled. */
  current(id: string): Installed | undefined;
}

/**
 * The extension's HTTP tools and one tool per workflow into the tool catalog. A handler is made
 * once per name and kept across reloads (it looks up the live definition on every call), so an
 * agent built before a reload keeps working; handlers of tools edited away are dropped.
 */
export function registerExtensionTools(
  entry: Installed,
  extension: LoadedExtension,
  registration: ToolRegistration,
): void {
  const id = extension.manifest.id;
  const { catalog, workflows } = registration;
  const names = new Set(extension.tools.map((tool) => tool.name));
  if (workflows !== undefined) {
    for (const workflow of extension.workflows) {
      const name = workflowToolName(workflow.id);
      names.add(name);
      if (!entry.handlers.has(name))
        entry.handlers.set(
          name,
          workflowToolHandler(workflow, workflowServices(id, workflow.id, workflows, registration)),
        );
      catalog.remember(
        { name, description: `Runs the workflow “${workflow.title}”`, mutating: false },
        'extension',
      );
    }
  }
  for (const name of entry.handlers.keys()) if (!names.has(name)) entry.handlers.delete(name);
  for (const tool of extension.tools) {
    if (!entry.handlers.has(tool.name))
      entry.handlers.set(
        tool.name,
        httpToolHandler(tool, id, () => liveTool(id, tool.name, registration)),
      );
    catalog.remember(
      { name: tool.name, description: tool.description, mutating: tool.mutating },
      'extension',
    );
  }
}

export function unregisterExtensionTools(entry: Installed, catalog: ToolCatalog): void {
  for (const name of entry.handlers.keys()) catalog.forget(name);
}

/** Tool names the extension would take that another source (or another extension) has. */
export function toolConflicts(
  catalog: ToolCatalog,
  extension: LoadedExtension,
  owner: (name: string) => string | undefined,
): ExtensionProblem[] {
  const id = extension.manifest.id;
  const problems: ExtensionProblem[] = [];
  for (const tool of extension.tools) {
    const known = catalog.known(tool.name);
    const holder = owner(tool.name);
    if (known !== undefined && holder !== id)
      problems.push({
        path: 'extension.json',
        message: `the tool name '${tool.name}' is taken (${holder === undefined ? known.source : `extension ${holder}`})`,
      });
  }
  return problems;
}

/** A tool as live now: undefined once its extension is disabled, uninstalled, or the tool was edited away. */
function liveTool(id: string, name: string, registration: ToolRegistration): LiveHttpTool | undefined {
  const entry = registration.current(id);
  if (entry === undefined || !isActive(entry) || entry.loaded === undefined) return undefined;
  const definition = entry.loaded.tools.find((tool) => tool.name === name);
  if (definition === undefined) return undefined;
  const { settingsService } = registration;
  return {
    definition,
    extensionId: id,
    domains: entry.record.permissions.network.domains,
    setting: (key) => settingsService.value(extensionSettingKey(id, key)),
    secret: (key) => settingsService.revealSecret(extensionSettingKey(id, key)),
  };
}

/** What one workflow of an extension runs with, every lookup made against the extension as it is now. */
function workflowServices(
  id: string,
  workflowId: string,
  base: ExtensionWorkflowOptions,
  registration: ToolRegistration,
): WorkflowServices {
  const live = () => {
    const entry = registration.current(id);
    return entry === undefined || !isActive(entry)
      ? undefined
      : entry.loaded?.workflows.find((workflow) => workflow.id === workflowId);
  };
  return {
    hitl: base.hitl,
    bindings: base.bindings,
    complete: base.complete,
    ...(base.planboards === undefined ? {} : { planboards: base.planboards }),
    live,
    slots: () =>
      (registration.current(id)?.loaded?.intents ?? [])
        .filter((intent) => intent.workflow === workflowId)
        .flatMap((intent) => intent.slots),
    formFields: (formId) => {
      const form = registration.current(id)?.loaded?.forms.find((item) => item.id === formId);
      const root = (form?.schema as { root?: { component?: string; fields?: unknown } } | undefined)?.root;
      return root?.component === 'Form' && Array.isArray(root.fields)
        ? (root.fields as FormField[])
        : undefined;
    },
    tool: async (name, conversationId) => {
      const entry = registration.current(id);
      if (entry === undefined || !isActive(entry)) return undefined;
      const handler = entry.handlers.get(name);
      if (handler === undefined) return undefined;
      const { policy } = await registration.catalog.policyOf(name, conversationId);
      return { handler, policy };
    },
  };
}

/** The handlers of active extensions' tools that the tool settings leave enabled. */
export async function enabledExtensionTools(
  entries: Iterable<Installed>,
  catalog: ToolCatalog,
): Promise<ToolHandler[]> {
  const stored = await catalog.stored();
  return [...entries].flatMap((entry) =>
    isActive(entry)
      ? [...entry.handlers.values()].filter((tool) => catalog.enabledIn(stored, tool.name))
      : [],
  );
}
