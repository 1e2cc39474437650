import { randomUUID } from 'node:crypto';
import {
  SetupBundleSchema,
  type SetupBundle,
  type SetupImportItem,
  type SetupImportPlan,
} from '@youyou/contracts';
import { ApiError } from '../errors/index.ts';
import { BUILTIN_COMMAND_NAMES } from '../library/index.ts';
import { transportOfRow } from '../mcp/index.ts';
import type { SetupBundleSources } from './setup-bundle-sources.ts';

/** One item of the plan and, unless it is skipped, how to write it. */
interface Step {
  item: SetupImportItem;
  apply?: (written: Written) => Promise<void>;
}

/** What earlier steps wrote that later ones refer to: projects by name. */
interface Written {
  projectIds: Map<string, string>;
  settings: Record<string, unknown>;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** A bundle checked whole: anything that is not one is INVALID_INPUT saying where, and nothing is read further. */
export function parseSetupBundle(content: unknown): SetupBundle {
  const parsed = SetupBundleSchema.safeParse(content);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.slice(0, 50).map((issue) => ({
    path: `/${issue.path.map(String).join('/')}`,
    message: issue.message,
  }));
  throw new ApiError(
    'INVALID_INPUT',
    `This is not a setup bundle: ${problems[0]?.path ?? '/'} ${problems[0]?.message ?? 'invalid'}.`,
    { details: { reason: 'invalid_setup_bundle', problems } },
  );
}

async function projectSteps(bundle: SetupBundle, sources: SetupBundleSources): Promise<Step[]> {
  const existing = new Set((await sources.projects.list()).map((row) => row.name));
  return bundle.projects.map((project): Step => {
    if (existing.has(project.name))
      return {
        item: { section: 'projects', name: project.name, action: 'skip', note: 'exists here already' },
      };
    return {
      item: { section: 'projects', name: project.name, action: 'create' },
      apply: async (written) => {
        let directory: string | null = null;
        if (project.directory !== null) {
          // A directory of the other machine that is not here (or not allowed here) is left unset.
          directory = await sources.checkDirectory(project.directory).catch(() => null);
        }
        const row = await sources.projects.create({
          id: randomUUID(),
          name: project.name,
          directory,
          now: Date.now(),
        });
        written.projectIds.set(project.name, row.id);
      },
    };
  });
}

async function settingSteps(bundle: SetupBundle, sources: SetupBundleSources): Promise<Step[]> {
  const { registry } = sources.settings;
  const current = new Map((await sources.settings.effective({})).settings.map((entry) => [entry.key, entry]));
  return Object.entries(bundle.settings).map(([key, value]): Step => {
    const skip = (note: string): Step => ({ item: { section: 'settings', name: key, action: 'skip', note } });
    const setting = registry.get(key);
    if (setting === undefined) return skip('no such setting here');
    if (setting.definition.secret) return skip('a secret: set it here');
    if (!setting.definition.layers.includes('user')) return skip('not a user setting here');
    try {
      registry.check(key, value);
    } catch (error) {
      return skip(`not valid here: ${error instanceof Error ? error.message : String(error)}`);
    }
    const entry = current.get(key);
    const setHere = entry?.set_at.includes('user') === true;
    if (setHere && same(entry?.value, value)) return skip('the same here');
    return {
      item: { section: 'settings', name: key, action: setHere ? 'overwrite' : 'create' },
      apply: async (written) => {
        written.settings[key] = value;
      },
    };
  });
}

async function profileSteps(bundle: SetupBundle, sources: SetupBundleSources): Promise<Step[]> {
  const byName = new Map((await sources.profiles.list()).map((profile) => [profile.name, profile]));
  return bundle.profiles.map((profile): Step => {
    const existing = byName.get(profile.name);
    if (existing?.builtin === true)
      return {
        item: { section: 'profiles', name: profile.name, action: 'skip', note: 'a built-in profile' },
      };
    if (existing === undefined)
      return {
        item: { section: 'profiles', name: profile.name, action: 'create' },
        apply: async () => void (await sources.profiles.create(profile)),
      };
    const { id: _id, builtin: _builtin, created_at: _created, updated_at: _updated, ...input } = existing;
    if (same(input, profile))
      return { item: { section: 'profiles', name: profile.name, action: 'skip', note: 'the same here' } };
    return {
      item: { section: 'profiles', name: profile.name, action: 'overwrite' },
      apply: async () => void (await sources.profiles.update(existing.id, profile)),
    };
  });
}

async function librarySteps(bundle: SetupBundle, sources: SetupBundleSources): Promise<Step[]> {
  const snippets = new Set(
    (await sources.library.snippets()).map((snippet) => `${snippet.title}\n${snippet.body}`),
  );
  const macros = new Map((await sources.library.macros()).map((macro) => [macro.name, macro]));
  const steps: Step[] = bundle.snippets.map((snippet) =>
    snippets.has(`${snippet.title}\n${snippet.body}`)
      ? { item: { section: 'snippets', name: snippet.title, action: 'skip', note: 'the same here' } }
      : {
          item: { section: 'snippets', name: snippet.title, action: 'create' },
          apply: async () => void (await sources.library.createSnippet(snippet)),
        },
  );
  for (const macro of bundle.macros) {
    const existing = macros.get(macro.name);
    if (BUILTIN_COMMAND_NAMES.includes(macro.name))
      steps.push({
        item: { section: 'macros', name: macro.name, action: 'skip', note: 'a built-in command' },
      });
    else if (existing === undefined)
      steps.push({
        item: { section: 'macros', name: macro.name, action: 'create' },
        apply: async () => void (await sources.library.createMacro(macro)),
      });
    else if (existing.template === macro.template && existing.description === macro.description)
      steps.push({ item: { section: 'macros', name: macro.name, action: 'skip', note: 'the same here' } });
    else
      steps.push({
        item: { section: 'macros', name: macro.name, action: 'overwrite' },
        apply: async () => void (await sources.library.updateMacro(existing.id, macro)),
      });
  }
  return steps;
}

async function memorySteps(
  bundle: SetupBundle,
  sources: SetupBundleSources,
  projectNames: ReadonlySet<string>,
): Promise<Step[]> {
  const projects = new Map((await sources.projects.list()).map((row) => [row.id, row.name]));
  const keyOf = (scope: string, project: string | null, content: string): string =>
    `${scope}\n${project ?? ''}\n${content.trim().toLowerCase()}`;
  const existing = new Set(
    (await sources.memory.repository.all()).map((item) =>
      keyOf(
        item.scope,
        item.project_id === null ? null : (projects.get(item.project_id) ?? null),
        item.content,
      ),
    ),
  );
  return bundle.memories.map((memory): Step => {
    const name = memory.content.slice(0, 80);
    if (memory.scope === 'project' && (memory.project === null || !projectNames.has(memory.project)))
      return {
        item: {
          section: 'memories',
          name,
          action: 'skip',
          note: 'its project is neither in the bundle nor here',
        },
      };
    if (existing.has(keyOf(memory.scope, memory.project, memory.content)))
      return { item: { section: 'memories', name, action: 'skip', note: 'the same here' } };
    return {
      item: { section: 'memories', name, action: 'create' },
      apply: async (written) => {
        const projectId =
          memory.scope === 'project' ? (written.projectIds.get(memory.project ?? '') ?? null) : null;
        await sources.memory.importMemory({
          scope: memory.scope,
          project_id: projectId,
          type: memory.type,
          content: memory.content,
          source: 'manual',
          source_run_id: null,
          confidence: memory.confidence,
          tags: memory.tags,
          expires_at: memory.expires_at,
        });
      },
    };
  });
}

async function mcpSteps(
  bundle: SetupBundle,
  sources: SetupBundleSources,
  projectNames: ReadonlySet<string>,
): Promise<Step[]> {
  const projects = new Map((await sources.projects.list()).map((row) => [row.id, row.name]));
  const rows = await sources.mcpServers.list();
  const find = (name: string, project: string | null) =>
    rows.find(
      (row) =>
        row.name === name &&
        (row.project_id === null ? null : (projects.get(row.project_id) ?? null)) === project,
    );
  return bundle.mcp_servers.map((server): Step => {
    const project = server.scope === 'project' ? server.project : null;
    if (server.scope === 'project' && (project === null || !projectNames.has(project)))
      return {
        item: {
          section: 'mcp_servers',
          name: server.name,
          action: 'skip',
          note: 'its project is neither in the bundle nor here',
        },
      };
    const existing = find(server.name, project);
    const previousEnv =
      existing === undefined ? {} : ((t) => (t.type === 'stdio' ? t.env : {}))(transportOfRow(existing));
    const transport =
      server.transport.type === 'stdio'
        ? {
            type: 'stdio' as const,
            command: server.transport.command,
            args: server.transport.args,
            ...(server.transport.cwd === undefined ? {} : { cwd: server.transport.cwd }),
            // Values this workbench already has stay; names it lacks are added empty, to fill in.
            env: Object.fromEntries(
              server.transport.env_names.map((name) => [name, previousEnv[name] ?? '']),
            ),
          }
        : server.transport;
    const missingEnv =
      server.transport.type === 'stdio'
        ? server.transport.env_names.filter((name) => previousEnv[name] === undefined)
        : [];
    const missingHeaders =
      existing === undefined
        ? server.secret_header_names
        : server.secret_header_names.filter(
            (name) => !(name in (JSON.parse(existing.secret_headers) as Record<string, string>)),
          );
    const needs = [
      ...(missingEnv.length === 0 ? [] : [`environment values: ${missingEnv.join(', ')}`]),
      ...(missingHeaders.length === 0 ? [] : [`secret headers: ${missingHeaders.join(', ')}`]),
    ];
    const note = needs.length === 0 ? undefined : `needs its ${needs.join('; ')}`;
    const common = {
      enabled: server.enabled,
      transport,
      ...(server.tool_timeout_ms === null ? {} : { tool_timeout_ms: server.tool_timeout_ms }),
      ...(server.idle_timeout_ms === null ? {} : { idle_timeout_ms: server.idle_timeout_ms }),
    };
    const item = (action: 'create' | 'overwrite'): SetupImportItem => ({
      section: 'mcp_servers',
      name: server.name,
      action,
      ...(note === undefined ? {} : { note }),
    });
    if (existing === undefined)
      return {
        item: item('create'),
        apply: async (written) => {
          const projectId = project === null ? undefined : written.projectIds.get(project);
          await sources.mcpServers.create({
            name: server.name,
            scope: server.scope,
            ...(projectId === undefined ? {} : { project_id: projectId }),
            ...common,
          });
        },
      };
    const unchanged =
      (existing.enabled === 1) === server.enabled &&
      same(transportOfRow(existing), transport) &&
      existing.tool_timeout_ms === server.tool_timeout_ms &&
      existing.idle_timeout_ms === server.idle_timeout_ms;
    if (unchanged)
      return {
        item: {
          section: 'mcp_servers',
          name: server.name,
          action: 'skip',
          note: note === undefined ? 'the same here' : `the same here; ${note}`,
        },
      };
    return {
      item: item('overwrite'),
      apply: async () => {
        await sources.mcpServers.update(existing.id, {
          ...common,
          tool_timeout_ms: server.tool_timeout_ms,
          idle_timeout_ms: server.idle_timeout_ms,
        });
        await sources.forgetMcpServer(existing.id);
      },
    };
  });
}

function extensionSteps(bundle: SetupBundle, sources: SetupBundleSources): Step[] {
  const installed = new Map(sources.extensions.list().map((extension) => [extension.id, extension]));
  return bundle.extensions.map((extension): Step => {
    const here = installed.get(extension.id);
    if (here === undefined)
      return {
        item: {
          section: 'extensions',
          name: extension.id,
          action: 'skip',
          note: `not installed here: install ${extension.id} ${extension.version}, then import again`,
        },
      };
    if ((here.state === 'enabled') === extension.enabled)
      return { item: { section: 'extensions', name: extension.id, action: 'skip', note: 'the same here' } };
    return {
      item: {
        section: 'extensions',
        name: extension.id,
        action: 'overwrite',
        note: extension.enabled ? 'switched on' : 'switched off',
      },
      apply: async () => void (await sources.extensions.setEnabled(extension.id, extension.enabled)),
    };
  });
}

async function stepsOf(bundle: SetupBundle, sources: SetupBundleSources): Promise<Step[]> {
  const projectNames = new Set([
    ...(await sources.projects.list()).map((row) => row.name),
    ...bundle.projects.map((project) => project.name),
  ]);
  // Projects first: memories and MCP servers of a project refer to it.
  return [
    ...(await projectSteps(bundle, sources)),
    ...(await settingSteps(bundle, sources)),
    ...(await profileSteps(bundle, sources)),
    ...(await librarySteps(bundle, sources)),
    ...(await memorySteps(bundle, sources, projectNames)),
    ...(await mcpSteps(bundle, sources, projectNames)),
    ...extensionSteps(bundle, sources),
  ];
}

function planOf(steps: readonly Step[], applied: boolean): SetupImportPlan {
  const counts = { create: 0, overwrite: 0, skip: 0 };
  for (const { item } of steps) counts[item.action] += 1;
  return { applied, items: steps.map((step) => step.item), counts };
}

/**
 * What importing `content` would do, item by item — nothing is written.
 *
 * @example
 * const plan = await previewSetupBundle(sources, bundle); // plan.counts.overwrite …
 */
export async function previewSetupBundle(
  sources: SetupBundleSources,
  content: unknown,
): Promise<SetupImportPlan> {
  return planOf(await stepsOf(parseSetupBundle(content), sources), false);
}

/**
 * Imports a bundle as its preview says: items the same here are left alone, items of the same
 * name are overwritten, the rest created; settings are written in one all-or-nothing write.
 *
 * @example
 * const report = await importSetupBundle(sources, bundle);
 */
export async function importSetupBundle(
  sources: SetupBundleSources,
  content: unknown,
): Promise<SetupImportPlan> {
  const steps = await stepsOf(parseSetupBundle(content), sources);
  const written: Written = {
    projectIds: new Map((await sources.projects.list()).map((row) => [row.name, row.id])),
    settings: {},
  };
  for (const step of steps.filter((candidate) => candidate.item.section === 'projects'))
    await step.apply?.(written);
  for (const step of steps.filter((candidate) => candidate.item.section === 'settings'))
    await step.apply?.(written);
  if (Object.keys(written.settings).length > 0)
    await sources.settings.write({ layer: 'user' }, written.settings);
  for (const step of steps) {
    if (step.item.section !== 'projects' && step.item.section !== 'settings') await step.apply?.(written);
  }
  return planOf(steps, true);
}
