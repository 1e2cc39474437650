import { lstat, readdir, readFile } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import { AgentError } from '@youyou/agent';
import {
  ComponentStore,
  INDEX_FILE,
  SKILL_FILE,
  type ComponentDraft,
  type ComponentFile,
  type FileComponentEntry,
  type FileLayer,
} from '@youyou/agent/files';
import type { CliArguments } from './cli-arguments.ts';
import { table, UsageError, type CliIo } from './cli-io.ts';
import { componentTemplate } from './component-templates.ts';
import { EXIT_CODES, type ExitCode } from './exit-codes.ts';

type Kind = ComponentDraft['kind'];
const KINDS: readonly Kind[] = ['tool', 'skill', 'plugin'];

/**
 * `youyou components list|add|remove|enable|disable` over the ComponentStore.
 *
 * @example
 * await runComponents(parseCliArguments(['components', 'disable', 'audit'], io), io);
 */
export async function runComponents(options: CliArguments, io: CliIo): Promise<ExitCode> {
  const [, action, ...rest] = options.positionals;
  const store = new ComponentStore({ cwd: options.cwd, home: options.home });
  switch (action) {
    case 'list':
      expectArguments(rest, 0, 'components list');
      return list(store, options, io);
    case 'add':
      return add(store, options, io, rest);
    case 'remove':
      return remove(store, options, io, rest);
    case 'enable':
    case 'disable':
      return toggle(store, options, io, rest, action === 'enable');
    case undefined:
      throw new UsageError('components needs an action: list, add, remove, enable or disable');
    default:
      throw new UsageError(`unknown components action: ${action}`);
  }
}

async function list(store: ComponentStore, options: CliArguments, io: CliIo): Promise<ExitCode> {
  const kind = options.kind === undefined ? undefined : parseKind(options.kind);
  const { components, diagnostics } = await store.list();
  const shown = components.filter((component) => kind === undefined || component.kind === kind);
  if (options.json) {
    io.stdout(`${JSON.stringify({ components: shown, diagnostics }, null, 2)}\n`);
    return EXIT_CODES.ok;
  }
  if (shown.length === 0) io.stdout('No file components.\n');
  else io.stdout(`${table([['KIND', 'NAME', 'LAYER', 'STATE', 'DESCRIPTION'], ...shown.map(row)], '')}\n`);
  const skipped = diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length;
  if (skipped > 0) io.stderr(`${String(skipped)} folder(s) skipped; run \`youyou doctor\` to see why.\n`);
  return EXIT_CODES.ok;
}

function row(component: FileComponentEntry): string[] {
  const state =
    component.overriddenBy !== undefined
      ? `overridden by ${component.overriddenBy}`
      : component.enabled
        ? 'active'
        : 'disabled';
  const description = component.description.split('\n')[0] ?? '';
  return [
    component.kind,
    component.name,
    component.layer,
    state,
    description.length > 60 ? `${description.slice(0, 59)}…` : description,
  ];
}

async function add(
  store: ComponentStore,
  options: CliArguments,
  io: CliIo,
  rest: string[],
): Promise<ExitCode> {
  const [kindText, nameText, ...extra] = rest;
  if (kindText === undefined) throw new UsageError('components add needs a kind: tool, skill or plugin');
  expectArguments(extra, 0, 'components add');
  const kind = parseKind(kindText);
  const name = nameText ?? (options.from === undefined ? undefined : basename(options.from));
  if (name === undefined) throw new UsageError('components add needs a name (or --from <folder>)');
  const layer: FileLayer = options.project ? 'project' : 'global';
  const draft: ComponentDraft =
    options.from === undefined
      ? { kind, name, layer, ...componentTemplate(kind, name) }
      : { kind, name, layer, ...(await readFolder(kind, options.from)) };
  const created = await store.create(draft);
  report(
    io,
    options,
    {
      action: 'added',
      kind,
      name,
      layer,
      path: created.directory,
      files: created.files,
      warnings: created.warnings,
    },
    `Added ${kind} ${name} (${layer}) at ${created.directory}`,
  );
  for (const warning of created.warnings) if (!options.json) io.stderr(`warning: ${warning.message}\n`);
  return EXIT_CODES.ok;
}

async function remove(
  store: ComponentStore,
  options: CliArguments,
  io: CliIo,
  rest: string[],
): Promise<ExitCode> {
  const [kindText, name, ...extra] = rest;
  if (kindText === undefined || name === undefined)
    throw new UsageError('usage: youyou components remove <kind> <name> [--global|--project]');
  expectArguments(extra, 0, 'components remove');
  const kind = parseKind(kindText);
  let layer: FileLayer;
  if (options.global || options.project) layer = options.global ? 'global' : 'project';
  else {
    const { components } = await store.list();
    const layers = components
      .filter((component) => component.kind === kind && component.name === name)
      .map((component) => component.layer);
    if (layers.includes('global') && layers.includes('project')) {
      throw new UsageError(`${kind} ${name} exists in both layers; pass --global or --project`);
    }
    layer = layers.includes('project') ? 'project' : 'global';
  }
  const directory = store.componentDirectory(kind, name, layer);
  await store.delete(kind, name, layer);
  report(
    io,
    options,
    { action: 'removed', kind, name, layer, path: directory },
    `Removed ${kind} ${name} (${layer})`,
  );
  return EXIT_CODES.ok;
}

async function toggle(
  store: ComponentStore,
  options: CliArguments,
  io: CliIo,
  rest: string[],
  enabled: boolean,
): Promise<ExitCode> {
  const [id, ...extra] = rest;
  if (id === undefined)
    throw new UsageError(`usage: youyou components ${enabled ? 'enable' : 'disable'} <plugin-id> [--global]`);
  expectArguments(extra, 0, 'components enable/disable');
  const scope: FileLayer = options.global ? 'global' : 'project';
  await store.setPluginEnabled(id, enabled, { scope });
  const where = scope === 'global' ? 'in every project' : `in ${options.cwd}`;
  report(
    io,
    options,
    { action: enabled ? 'enabled' : 'disabled', kind: 'plugin', name: id, scope },
    `Plugin ${id} ${enabled ? 'enabled' : 'disabled'} ${where}; the next session picks it up`,
  );
  return EXIT_CODES.ok;
}

/** Reads a component folder for `--from`: its entry file and every other file (not `.git`, not links). */
async function readFolder(
  kind: Kind,
  folder: string,
): Promise<Pick<ComponentDraft, 'entry' | 'entryFile' | 'files'>> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch((error: unknown) => {
    throw new AgentError(
      'INVALID_INPUT',
      `Cannot read ${folder}: ${error instanceof Error ? error.message : String(error)}`,
      {
        details: { path: folder },
      },
    );
  });
  const names = new Set(
    entries
      .filter((entry) => entry.isFile())
      .map((entry) => relative(folder, join(entry.parentPath, entry.name)).split(sep).join('/')),
  );
  const entryFile = names.has(INDEX_FILE)
    ? INDEX_FILE
    : kind === 'skill' && names.has(SKILL_FILE)
      ? SKILL_FILE
      : undefined;
  if (entryFile === undefined) {
    throw new AgentError(
      'INVALID_INPUT',
      `${folder} has no ${kind === 'skill' ? `${INDEX_FILE} or ${SKILL_FILE}` : INDEX_FILE}`,
      {
        details: { path: folder },
      },
    );
  }
  const files: ComponentFile[] = [];
  for (const name of [...names].sort()) {
    if (
      name === entryFile ||
      name.split('/').includes('.git') ||
      (entryFile === INDEX_FILE && name === SKILL_FILE)
    )
      continue;
    const path = join(folder, name);
    const info = await lstat(path);
    files.push({ path: name, content: await readFile(path), executable: (info.mode & 0o111) !== 0 });
  }
  return { entry: await readFile(join(folder, entryFile), 'utf8'), entryFile, files };
}

function report(io: CliIo, options: CliArguments, result: Record<string, unknown>, text: string): void {
  io.stdout(options.json ? `${JSON.stringify(result, null, 2)}\n` : `${text}\n`);
}

function parseKind(text: string): Kind {
  const kind = text.endsWith('s') ? text.slice(0, -1) : text;
  if (!(KINDS as readonly string[]).includes(kind))
    throw new UsageError(`unknown kind: ${text} (tool, skill or plugin)`);
  return kind as Kind;
}

function expectArguments(extra: readonly string[], count: number, command: string): void {
  if (extra.length > count) throw new UsageError(`unexpected argument for ${command}: ${extra[count] ?? ''}`);
}
