import { readFile, realpath, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ComponentSource, LayerComponents, LoadedComponents } from '../components/index.ts';
import type { AgentConfig } from '../config/index.ts';
import { isAgentError } from '../errors/index.ts';
import type { AgentError } from '../errors/index.ts';
import { parseConfigFile } from './config-file.ts';
import { fileDiagnostic } from './file-diagnostic.ts';
import type { FileLayer, FileLoadDiagnostic } from './file-diagnostic.ts';
import type { FileChannelLogger } from './file-logger.ts';
import { SILENT_LOGGER } from './file-logger.ts';
import { createFilePlugin } from './file-plugin.ts';
import { createFileTool } from './file-tool.ts';
import { emptyLayerScan, scanLayer } from './layer-scan.ts';
import type { LayerScan } from './layer-scan.ts';
import { pluginTogglesFor, readPluginState } from './plugin-state.ts';
import { projectLayerDirectory } from './youyou-home.ts';

/**
 * File names the loader reads at the top of a layer.
 *
 * @example
 * join(resolveYouyouHome(), CONFIG_FILE); // "/home/me/.youyou/config.yaml"
 */
export const CONFIG_FILE = 'config.yaml';
/** @example join(projectLayerDirectory(cwd), AGENT_FILE) // "{cwd}/.youyou/AGENT.md" */
export const AGENT_FILE = 'AGENT.md';
/**
 * The project instructions other agent tools share (agents.md), read at the project root.
 *
 * @example join(cwd, PROJECT_AGENTS_FILE) // "{cwd}/AGENTS.md"
 */
export const PROJECT_AGENTS_FILE = 'AGENTS.md';
/** @example join(resolveYouyouHome(), SOUL_FILE) // "/home/me/.youyou/SOUL.md" (global only) */
export const SOUL_FILE = 'SOUL.md';

/**
 * Everything the file channel read for one working directory, before binding to runners.
 *
 * @example
 * const scan: FileScan = await scanFileComponents({ cwd, home });
 * scan.global.tools.map((tool) => tool.definition.name);
 */
export interface FileScan {
  home: string;
  cwd: string;
  /** `{cwd}/.youyou`, or `undefined` when it is the home itself (then it is not read twice). */
  projectDirectory: string | undefined;
  global: LayerScan;
  project: LayerScan;
  globalInstructions?: string;
  /** `{cwd}/AGENTS.md` then `{cwd}/.youyou/AGENT.md`, joined by a blank line. */
  projectInstructions?: string;
  /** The files `projectInstructions` was read from, in that order. */
  projectInstructionFiles: string[];
  soul?: string;
  /** Settings from config.yaml (empty when it is missing or invalid). */
  config: Partial<AgentConfig>;
  /** CONFIG_PARSE_ERROR of config.yaml; `load` throws it, `scan` reports it. */
  configError?: AgentError;
  pluginToggles: Record<string, boolean>;
  /** Every diagnostic: both layers, config.yaml warnings, the toggle file, ignored files. */
  diagnostics: FileLoadDiagnostic[];
}

/**
 * Options of `FileComponentSource`.
 *
 * @example
 * new FileComponentSource({ logger: pino() });
 */
export interface FileComponentSourceOptions {
  logger?: FileChannelLogger;
}

/**
 * The `~/.youyou` registration channel (spec §5, §6.1) as a `ComponentSource`: scans the global
 * home and `{cwd}/.youyou` for tools, skills and plugins, reads `AGENT.md` (both layers) and
 * `{cwd}/AGENTS.md` (project instructions, before `{cwd}/.youyou/AGENT.md`), `SOUL.md` and
 * `config.yaml` (global only) and the runtime plugin toggles. Invalid folders
 * become diagnostics; an invalid config.yaml makes `load` throw CONFIG_PARSE_ERROR.
 *
 * @example
 * const agent = await new AgentBuilder({ cwd: process.cwd() })
 *   .addProvider(provider)
 *   .addComponentSource(new FileComponentSource({ logger }))
 *   .build();
 */
export class FileComponentSource implements ComponentSource {
  private readonly ownLogger: FileChannelLogger | undefined;

  constructor(options: FileComponentSourceOptions = {}) {
    this.ownLogger = options.logger;
  }

  /** Uses its own logger if it was given one, else the builder's, else none. */
  async load(options: { cwd: string; home: string; logger?: FileChannelLogger }): Promise<LoadedComponents> {
    const logger = this.ownLogger ?? options.logger ?? SILENT_LOGGER;
    const scan = await scanFileComponents({ cwd: options.cwd, home: options.home });
    if (scan.configError !== undefined) throw scan.configError;
    const defaultTimeoutMs = scan.config.toolTimeoutMs;
    const bind = (layer: LayerScan): LayerComponents => ({
      tools: layer.tools.map(({ definition, directory }) => ({
        tool: createFileTool({
          definition,
          componentDirectory: directory,
          defaultTimeoutMs,
          logger,
        }),
        path: directory,
      })),
      skills: layer.skills.map(({ definition, directory }) => ({
        skill: { ...definition, directory },
        path: directory,
      })),
      plugins: layer.plugins.map(({ definition, directory }) => {
        const plugin = createFilePlugin({
          definition,
          componentDirectory: directory,
          cwd: scan.cwd,
          home: scan.home,
          defaultTimeoutMs,
          logger,
        });
        return definition.config === undefined
          ? { plugin, enabled: definition.enabled, path: directory }
          : { plugin, config: definition.config, enabled: definition.enabled, path: directory };
      }),
    });
    const loaded: LoadedComponents = {
      global: bind(scan.global),
      project: bind(scan.project),
      config: scan.config,
      pluginToggles: scan.pluginToggles,
      diagnostics: scan.diagnostics,
    };
    if (scan.globalInstructions !== undefined) loaded.globalInstructions = scan.globalInstructions;
    if (scan.projectInstructions !== undefined) loaded.projectInstructions = scan.projectInstructions;
    if (scan.soul !== undefined) loaded.soul = scan.soul;
    return loaded;
  }
}

/**
 * Reads both layers without starting anything. `youyou doctor` and `ComponentStore.list` use it;
 * `FileComponentSource.load` binds its result to script runners.
 *
 * @example
 * const scan = await scanFileComponents({ cwd: process.cwd(), home: resolveYouyouHome() });
 * scan.diagnostics.forEach((diagnostic) => console.log(diagnostic.path, diagnostic.reason));
 */
export async function scanFileComponents(options: { cwd: string; home: string }): Promise<FileScan> {
  const home = resolve(options.home);
  const cwd = resolve(options.cwd);
  const projectDirectory = await distinctProjectDirectory(home, cwd);
  const diagnostics: FileLoadDiagnostic[] = [];
  const [global, project, globalInstructions, agentsFile, youyouAgentFile, soul, configText, pluginState] =
    await Promise.all([
      scanLayer(home, 'global'),
      projectDirectory === undefined ? emptyLayerScan() : scanLayer(projectDirectory, 'project'),
      readOptionalText(join(home, AGENT_FILE), 'global', diagnostics),
      projectDirectory === undefined
        ? undefined
        : readOptionalText(join(cwd, PROJECT_AGENTS_FILE), 'project', diagnostics),
      projectDirectory === undefined
        ? undefined
        : readOptionalText(join(projectDirectory, AGENT_FILE), 'project', diagnostics),
      readOptionalText(join(home, SOUL_FILE), 'global', diagnostics),
      readOptionalText(join(home, CONFIG_FILE), 'global', diagnostics, { trim: false }),
      readPluginState(home),
    ]);
  const scan: FileScan = {
    home,
    cwd,
    projectDirectory,
    global,
    project,
    config: {},
    pluginToggles: pluginTogglesFor(pluginState.state, cwd),
    diagnostics,
    projectInstructionFiles: [],
  };
  if (globalInstructions !== undefined) scan.globalInstructions = globalInstructions;
  // `{cwd}/AGENTS.md` first, then `{cwd}/.youyou/AGENT.md`: the YouYou-specific file comes last so
  // it can refine what the shared one says.
  const projectFiles = [
    { path: join(cwd, PROJECT_AGENTS_FILE), text: agentsFile },
    { path: join(projectDirectory ?? cwd, AGENT_FILE), text: youyouAgentFile },
  ].filter((file): file is { path: string; text: string } => file.text !== undefined);
  if (projectFiles.length > 0) {
    scan.projectInstructions = projectFiles.map((file) => file.text).join('\n\n');
    scan.projectInstructionFiles = projectFiles.map((file) => file.path);
  }
  if (soul !== undefined) scan.soul = soul;
  if (configText !== undefined) {
    try {
      const parsed = parseConfigFile(configText, join(home, CONFIG_FILE));
      scan.config = parsed.config;
      diagnostics.push(...parsed.diagnostics);
    } catch (error) {
      if (!isAgentError(error)) throw error;
      scan.configError = error;
      const line = typeof error.details['line'] === 'number' ? error.details['line'] : undefined;
      diagnostics.push(fileDiagnostic({ path: join(home, CONFIG_FILE), reason: error.message, line }));
    }
  }
  if (projectDirectory !== undefined) {
    for (const ignored of [CONFIG_FILE, SOUL_FILE]) {
      if (await exists(join(projectDirectory, ignored))) {
        diagnostics.push(
          fileDiagnostic({
            path: join(projectDirectory, ignored),
            reason: `ignored: ${ignored} is read only from the global home (${join(home, ignored)})`,
            severity: 'warning',
            layer: 'project',
          }),
        );
      }
    }
  }
  diagnostics.push(...pluginState.diagnostics, ...global.diagnostics, ...project.diagnostics);
  return scan;
}

/** `{cwd}/.youyou`, unless it is the home itself (cwd is the user's home directory). */
async function distinctProjectDirectory(home: string, cwd: string): Promise<string | undefined> {
  const projectDirectory = projectLayerDirectory(cwd);
  if (projectDirectory === home) return undefined;
  try {
    if ((await realpath(projectDirectory)) === (await realpath(home))) return undefined;
  } catch {
    // One of them does not exist: they cannot be the same folder.
  }
  return projectDirectory;
}

async function readOptionalText(
  path: string,
  layer: FileLayer,
  diagnostics: FileLoadDiagnostic[],
  options: { trim: boolean } = { trim: true },
): Promise<string | undefined> {
  try {
    const text = await readFile(path, 'utf8');
    const content = options.trim ? text.trim() : text;
    return content === '' && options.trim ? undefined : content;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      diagnostics.push(fileDiagnostic({ path, reason: `could not be read: ${String(error)}`, layer }));
    }
    return undefined;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
