import { randomUUID } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { mkdir, readdir, rename } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { ComponentSource, LoadedComponents, ToolHandler } from '@youyou/agent';
import { FileComponentSource } from '@youyou/agent/files';
import {
  ExtensionPermissionsSchema,
  extensionSettingKey,
  extensionSource,
  fillTemplate,
  type ExtensionInstallRequest,
  type ExtensionPermissions,
  type ExtensionPreview,
  type ExtensionProblem,
  type ExtensionsChangedPayload,
  type ExtensionUiEntry,
  type FormField,
  type IntentMatch,
  type InstalledExtension,
} from '@youyou/contracts';
import pino from 'pino';
import type { WorkbenchDatabase } from '../database/index.ts';
import type { ParserRegistry } from '../documents/index.ts';
import { ApiError } from '../errors/index.ts';
import type { CommandRegistry } from '../library/index.ts';
import type { ServerLogger } from '../logging/index.ts';
import { DEFAULT_SETTINGS_PAGE, type SettingsRegistry, type SettingsService } from '../settings/index.ts';
import type { HitlService } from '../hitl/index.ts';
import type { KnowledgePackFile } from '../knowledge/index.ts';
import type { PlanboardRepository } from '../planboard/index.ts';
import type { RunBindings, ToolCatalog } from '../tools/index.ts';
import type { UiSurfaceRegistry } from '../ui-surfaces/index.ts';
import type { WorkbenchStream } from '../workbench-stream/index.ts';
import { PackageError, removeFolder, stageFromPath, unpackArchive } from './extension-files.ts';
import { countsOf, loadExtension, type LoadedExtension, type LoadOptions } from './extension-loader.ts';
import { ExtensionRepository, type ExtensionRecord } from './extension-repository.ts';
import { httpToolHandler, type LiveHttpTool } from './http-tool.ts';
import { matchIntent } from './intent-router.ts';
import { processParser } from './process-parser.ts';
import { workflowToolHandler, workflowToolName, type WorkflowServices } from './workflow-tool.ts';

/**
 * A command's arguments from what follows its name: `name=value` pairs (a value runs to the next
 * pair; quotes around it are dropped), or the whole text as the first parameter's value.
 */
function commandArguments(names: readonly string[], text: string): Record<string, unknown> {
  const known = names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const trimmed = text.trim();
  if (trimmed === '') return {};
  const values: Record<string, unknown> = {};
  if (known !== '') {
    const pairs = [...trimmed.matchAll(new RegExp(`(?:^|\\s)(${known})=`, 'g'))];
    pairs.forEach((pair, index) => {
      const start = (pair.index ?? 0) + pair[0].length;
      const end = pairs[index + 1]?.index ?? trimmed.length;
      values[pair[1] ?? ''] = trimmed
        .slice(start, end)
        .trim()
        .replace(/^(["'])(.*)\1$/s, '$2');
    });
    if (pairs.length > 0) return values;
  }
  const first = names[0];
  return first === undefined ? {} : { [first]: trimmed };
}

/** A staged preview is kept this long for the install that follows it. */
const STAGING_TTL_MS = 60 * 60 * 1000;

export interface ExtensionHostOptions {
  database: WorkbenchDatabase;
  /** Extensions live in `<dataDirectory>/extensions/` (`installed/<id>`, `staging/<uuid>`). */
  dataDirectory: string;
  settingsRegistry: SettingsRegistry;
  settingsService: SettingsService;
  commands: CommandRegistry;
  catalog: ToolCatalog;
  stream?: WorkbenchStream;
  logger?: ServerLogger;
  /** Validates panel, card and form documents (the UI-schema vocabulary). */
  checkUiSchema?: LoadOptions['checkUiSchema'];
  /** What workflows run with (HITL cards, the run of a tool call, the chat model); absent: no workflows. */
  workflows?: {
    hitl: HitlService;
    bindings: RunBindings;
    complete: WorkflowServices['complete'];
    planboards?: PlanboardRepository;
  };
  /** Where knowledge packs are indexed (the knowledge service); absent: packs are listed only. */
  knowledge?: {
    indexPacks(extensionId: string, files: readonly KnowledgePackFile[]): Promise<void>;
    forgetPacks(extensionId: string): Promise<void>;
  };
  /** Hot reload of declarative assets (default on); the delay gathers an editor's several writes. */
  watch?: boolean;
  reloadDelayMs?: number;
}

/** Runs an extension's command that is bound to a workflow (from a panel's or card's action). */
export type WorkflowCommandRunner = (
  extensionId: string,
  command: LoadedExtension['commands'][number],
  argumentsMap: Readonly<Record<string, unknown>>,
  conversationId: string | undefined,
) => Promise<{ output: string; isError?: boolean }>;

/** An installed extension as the host holds it. */
interface Installed {
  record: ExtensionRecord;
  /** The last version that loaded without a problem; undefined when none did (it stays inactive). */
  loaded: LoadedExtension | undefined;
  /** Problems of the last load or reload. */
  problems: ExtensionProblem[];
  reloadedAt: number | null;
  /** Handlers of its tools, one per name, kept across reloads. */
  handlers: Map<string, ToolHandler>;
  watcher: FSWatcher | undefined;
  timer: NodeJS.Timeout | undefined;
  pendingRestart: boolean;
}

function samePermissions(a: ExtensionPermissions, b: ExtensionPermissions): boolean {
  const normal = (permissions: ExtensionPermissions) =>
    JSON.stringify({
      network: [...permissions.network.domains].sort(),
      tools: [...permissions.tools.execute].sort(),
      data: [...permissions.data.scopes].sort(),
    });
  return normal(a) === normal(b);
}

/**
 * The extension host (spec §4.6): installs extensions from a local folder or archive after the
 * user has seen their permissions, loads them fail-closed, registers what they provide into the
 * workbench's registries (tools, commands, settings; panels, cards and forms for the UI), reloads
 * declarative assets when their files change (a bad edit keeps the last good version), and
 * unregisters everything on disable or uninstall. Agent-framework folders (code) load only when
 * the server starts.
 *
 * @example
 * const host = new ExtensionHost(options);
 * await host.start();
 * const preview = await host.preview('/home/me/my-extension');
 * await host.install({ staging_id: preview.staging_id, accepted_permissions: preview.permissions! });
 */
export class ExtensionHost {
  readonly #options: ExtensionHostOptions;
  readonly #repository: ExtensionRepository;
  readonly #logger: ServerLogger;
  readonly #installed = new Map<string, Installed>();
  readonly #staged = new Map<string, { directory: string; at: number }>();
  readonly #files = new FileComponentSource();
  /** Agent-framework folders loaded at start (code loads only then). */
  readonly #agentDirectories = new Map<string, string>();
  #disabledSources = new Set<string>();
  #surfaces: UiSurfaceRegistry | undefined;
  #parsers: ParserRegistry | undefined;
  readonly #surfaceRemovers = new Map<string, () => void>();
  #generation = 0;
  /** Runs a workflow command of an extension (set by the workflow runner). */
  #commandRunner: WorkflowCommandRunner | undefined;
  #closed = false;

  constructor(options: ExtensionHostOptions) {
    this.#options = options;
    this.#repository = new ExtensionRepository(options.database.db);
    this.#logger = options.logger ?? pino({ level: 'silent' });
  }

  get root(): string {
    return join(this.#options.dataDirectory, 'extensions');
  }

  #installedDirectory(id: string): string {
    return join(this.root, 'installed', id);
  }

  /** Changes whenever what extensions provide changes: agents built before are rebuilt. */
  get fingerprint(): string {
    return `${this.#generation}:${[...this.#disabledSources].sort().join(',')}`;
  }

  /** Loads every installed extension (a broken one stays inactive, its problems listed). */
  async start(): Promise<void> {
    await mkdir(join(this.root, 'installed'), { recursive: true, mode: 0o700 });
    await removeFolder(join(this.root, 'staging'));
    await mkdir(join(this.root, 'staging'), { recursive: true, mode: 0o700 });
    this.#disabledSources = new Set(await this.#repository.disabledSources());
    this.#options.catalog.setSourceSwitch((source) => this.#toolSourceOn(source));
    for (const record of await this.#repository.list()) {
      const entry = this.#entryOf(record);
      this.#installed.set(record.id, entry);
      const result = await this.#load(this.#installedDirectory(record.id));
      if (result.ok && result.extension.manifest.id === record.id) {
        entry.loaded = result.extension;
        if (record.state === 'enabled') {
          this.#activate(entry);
          if (result.extension.agentDirectory !== undefined)
            this.#agentDirectories.set(record.id, result.extension.agentDirectory);
        }
      } else {
        entry.problems = result.ok
          ? [
              {
                path: 'extension.json',
                message: `the folder holds '${result.extension.manifest.id}', not '${record.id}'`,
              },
            ]
          : result.problems;
        this.#logger.warn(
          { extension: record.id, problems: entry.problems },
          'an installed extension does not load',
        );
      }
      this.#watch(entry);
    }
    this.#generation++;
  }

  /** Stops watching files. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const entry of this.#installed.values()) {
      entry.watcher?.close();
      clearTimeout(entry.timer);
    }
  }

  #entryOf(record: ExtensionRecord): Installed {
    return {
      record,
      loaded: undefined,
      problems: [],
      reloadedAt: null,
      handlers: new Map(),
      watcher: undefined,
      timer: undefined,
      pendingRestart: false,
    };
  }

  #load(directory: string) {
    return loadExtension(directory, {
      ...(this.#options.checkUiSchema === undefined ? {} : { checkUiSchema: this.#options.checkUiSchema }),
    });
  }

  // ---- install ------------------------------------------------------------------------------

  /** Stages a local folder or archive and says what installing it would do. Nothing is installed. */
  async preview(path: string): Promise<ExtensionPreview> {
    return this.#stage((directory) => stageFromPath(path, directory));
  }

  /** Stages an uploaded `.zip` or `.tgz`. */
  async previewArchive(name: string, bytes: Uint8Array): Promise<ExtensionPreview> {
    return this.#stage((directory) => unpackArchive(name, bytes, directory));
  }

  async #stage(fill: (directory: string) => Promise<void>): Promise<ExtensionPreview> {
    await this.#sweepStaging();
    const stagingId = randomUUID();
    const directory = join(this.root, 'staging', stagingId);
    try {
      await fill(directory);
    } catch (error) {
      await removeFolder(directory);
      if (error instanceof PackageError) {
        return {
          staging_id: stagingId,
          ok: false,
          manifest: null,
          permissions: null,
          counts: {},
          replaces: null,
          problems: error.problems,
        };
      }
      throw error;
    }
    this.#staged.set(stagingId, { directory, at: Date.now() });
    const result = await this.#load(directory);
    const manifest = result.ok ? result.extension.manifest : (result.manifest ?? null);
    const existing = manifest === null ? undefined : this.#installed.get(manifest.id);
    return {
      staging_id: stagingId,
      ok: result.ok,
      manifest,
      permissions: manifest?.requires ?? null,
      counts: result.ok ? countsOf(result.extension) : {},
      replaces: existing === undefined ? null : existing.record.version,
      problems: result.ok ? [] : result.problems,
    };
  }

  async #sweepStaging(): Promise<void> {
    const now = Date.now();
    for (const [id, staged] of this.#staged) {
      if (now - staged.at < STAGING_TTL_MS) continue;
      this.#staged.delete(id);
      await removeFolder(staged.directory);
    }
  }

  /**
   * Installs a staged extension (replacing an installed one of the same id). Refused unless it
   * loads without a problem and `accepted_permissions` equals what it asks for.
   */
  async install(request: ExtensionInstallRequest): Promise<InstalledExtension> {
    const staged = this.#staged.get(request.staging_id);
    if (staged === undefined)
      throw new ApiError('NOT_FOUND', 'No staged extension with this id: preview it again.', {
        details: { staging_id: request.staging_id },
      });
    const result = await this.#load(staged.directory);
    if (!result.ok) {
      throw new ApiError(
        'EXTENSION_INVALID',
        `The extension has ${result.problems.length} problem(s); nothing was installed.`,
        {
          details: { problems: result.problems },
        },
      );
    }
    const { manifest } = result.extension;
    if (!samePermissions(ExtensionPermissionsSchema.parse(request.accepted_permissions), manifest.requires)) {
      throw new ApiError(
        'EXTENSION_PERMISSIONS_NOT_ACCEPTED',
        'The accepted permissions differ from the ones the extension asks for.',
        {
          details: { requires: manifest.requires },
        },
      );
    }
    const conflicts = this.#conflicts(result.extension);
    if (conflicts.length > 0) {
      throw new ApiError(
        'EXTENSION_INVALID',
        'The extension provides names another source already uses; nothing was installed.',
        {
          details: { problems: conflicts },
        },
      );
    }
    const previous = this.#installed.get(manifest.id);
    if (previous !== undefined) {
      this.#deactivate(previous);
      previous.watcher?.close();
      clearTimeout(previous.timer);
      this.#installed.delete(manifest.id);
    }
    const target = this.#installedDirectory(manifest.id);
    await removeFolder(target);
    await rename(staged.directory, target);
    this.#staged.delete(request.staging_id);
    const now = Date.now();
    const record: ExtensionRecord = {
      id: manifest.id,
      version: manifest.version,
      apiVersion: manifest.apiVersion,
      manifest,
      permissions: manifest.requires,
      state: request.enable === false ? 'disabled' : 'enabled',
      installedAt: previous?.record.installedAt ?? now,
      updatedAt: now,
    };
    await this.#repository.upsert(record);
    const entry = this.#entryOf(record);
    const loaded = await this.#load(target);
    entry.loaded = loaded.ok ? loaded.extension : undefined;
    entry.pendingRestart = entry.loaded?.agentDirectory !== undefined;
    this.#installed.set(manifest.id, entry);
    if (record.state === 'enabled') this.#activate(entry);
    this.#watch(entry);
    this.#changed(manifest.id, 'installed');
    this.#logger.info(
      { extension: manifest.id, version: manifest.version, permissions: manifest.requires },
      'extension installed',
    );
    return this.#view(entry);
  }

  /** Names the extension would take that another source has (tools, commands, settings). */
  #conflicts(extension: LoadedExtension): ExtensionProblem[] {
    const id = extension.manifest.id;
    const problems: ExtensionProblem[] = [];
    for (const tool of extension.tools) {
      const known = this.#options.catalog.known(tool.name);
      const owner = this.#toolOwner(tool.name);
      if (known !== undefined && owner !== id)
        problems.push({
          path: 'extension.json',
          message: `the tool name '${tool.name}' is taken (${owner === undefined ? known.source : `extension ${owner}`})`,
        });
    }
    for (const item of extension.manifest.settings) {
      const key = extensionSettingKey(id, item.key);
      const registered = this.#options.settingsRegistry.get(key);
      if (registered !== undefined && registered.definition.source_id !== id)
        problems.push({ path: 'extension.json', message: `the setting key '${key}' is taken` });
    }
    return problems;
  }

  #toolOwner(name: string): string | undefined {
    for (const [id, entry] of this.#installed) if (entry.handlers.has(name)) return id;
    return undefined;
  }

  async setEnabled(id: string, enabled: boolean): Promise<InstalledExtension> {
    const entry = this.#require(id);
    const state = enabled ? 'enabled' : 'disabled';
    if (entry.record.state !== state) {
      await this.#repository.setState(id, state, Date.now());
      entry.record = { ...entry.record, state };
      if (enabled) this.#activate(entry);
      else this.#deactivate(entry);
      this.#changed(id, enabled ? 'enabled' : 'disabled');
    }
    return this.#view(entry);
  }

  /** Unregisters everything the extension provided and deletes its files; stored setting values stay. */
  async uninstall(id: string): Promise<void> {
    const entry = this.#require(id);
    this.#deactivate(entry);
    entry.watcher?.close();
    clearTimeout(entry.timer);
    this.#installed.delete(id);
    this.#agentDirectories.delete(id);
    await this.#repository.delete(id);
    await removeFolder(this.#installedDirectory(id));
    this.#changed(id, 'uninstalled');
    this.#logger.info({ extension: id }, 'extension uninstalled');
  }

  #require(id: string): Installed {
    const entry = this.#installed.get(id);
    if (entry === undefined)
      throw new ApiError('NOT_FOUND', `No extension '${id}' is installed.`, { details: { id } });
    return entry;
  }

  // ---- activation --------------------------------------------------------------------------

  #active(entry: Installed): boolean {
    return entry.record.state === 'enabled' && entry.loaded !== undefined;
  }

  /** Registers what the loaded version provides. */
  #activate(entry: Installed): void {
    const extension = entry.loaded;
    if (extension === undefined) return;
    const id = extension.manifest.id;
    const { settingsRegistry, commands, catalog } = this.#options;
    settingsRegistry.registerSection({
      id,
      label: extension.manifest.name,
      order: 2000,
      page: DEFAULT_SETTINGS_PAGE,
    });
    for (const [order, item] of extension.manifest.settings.entries()) {
      settingsRegistry.register({
        order,
        key: extensionSettingKey(id, item.key),
        section: id,
        source: 'extension',
        source_id: id,
        schema: item.schema,
        effect: item.effect,
        label: item.label,
        help: item.help,
        secret: item.secret,
        // A secret is read from the user layer only (it goes into request headers).
        layers: item.secret ? ['user'] : ['user', 'project'],
      });
    }
    for (const command of extension.commands) {
      const workflow =
        command.workflow === undefined
          ? undefined
          : extension.workflows.find((item) => item.id === command.workflow);
      if (command.template === undefined && (workflow === undefined || this.#options.workflows === undefined))
        continue;
      try {
        commands.register({
          name: command.name,
          source: 'extension',
          action: 'macro',
          description: command.description,
          parameters: command.parameters,
          source_id: id,
          // A workflow command fills in as itself with its parameters (`/city-report city=Oslo`):
          // sent, it starts the workflow's run directly (workflowCommand), no model in between.
          ...(workflow === undefined
            ? { template: command.template ?? '' }
            : {
                // Without parameters a space ends it, so the composer's `/` palette stays closed.
                template:
                  command.parameters.length === 0
                    ? `/${command.name} `
                    : `/${command.name}${command.parameters.map((parameter) => ` ${parameter.name}={{${parameter.name}}}`).join('')}`,
              }),
        });
      } catch (error) {
        this.#logger.warn(
          { err: error, extension: id, command: command.name },
          'an extension command is not registered',
        );
      }
    }
    const names = new Set(extension.tools.map((tool) => tool.name));
    const workflowServices = this.#options.workflows;
    if (workflowServices !== undefined) {
      for (const workflow of extension.workflows) {
        const name = workflowToolName(workflow.id);
        names.add(name);
        if (!entry.handlers.has(name))
          entry.handlers.set(
            name,
            workflowToolHandler(workflow, this.#workflowServices(id, workflow.id, workflowServices)),
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
          httpToolHandler(tool, id, () => this.#liveTool(id, tool.name)),
        );
      catalog.remember(
        { name: tool.name, description: tool.description, mutating: tool.mutating },
        'extension',
      );
    }
    this.#registerSurface(entry);
    this.#registerParsers(entry);
    this.#indexKnowledge(id, extension);
    this.#generation++;
  }

  /** The extension's document parsers into ingest's registry, under its source tag. */
  #registerParsers(entry: Installed): void {
    const registry = this.#parsers;
    const extension = entry.loaded;
    if (registry === undefined || extension === undefined) return;
    const id = entry.record.id;
    registry.unregisterSource(extensionSource(id));
    for (const parser of extension.parsers) {
      try {
        registry.register(processParser(id, extension.directory, parser));
      } catch (error) {
        this.#logger.warn(
          { err: error, extension: id, parser: parser.id },
          'an extension parser is not registered',
        );
      }
    }
  }

  /**
   * Connects ingest's parser registry (spec §4.11 ParserProvider): every enabled extension's
   * parsers are registered as `extension:<id>/<parser>`, removed when it is disabled or uninstalled.
   */
  attachParsers(registry: ParserRegistry): void {
    this.#parsers = registry;
    for (const entry of this.#installed.values()) if (this.#active(entry)) this.#registerParsers(entry);
  }

  /** The packs' files into the knowledge index, in the background (each item shows its status). */
  #indexKnowledge(id: string, extension: LoadedExtension): void {
    const knowledge = this.#options.knowledge;
    if (knowledge === undefined) return;
    const files = extension.knowledge.flatMap((pack) =>
      pack.files.map((relative) => ({
        pack: pack.id,
        relative,
        path: join(extension.directory, relative),
        root: extension.directory,
      })),
    );
    knowledge
      .indexPacks(id, files)
      .catch((error: unknown) =>
        this.#logger.warn({ err: error, extension: id }, 'a knowledge pack is not indexed'),
      );
  }

  /**
   * Connects the UI-surface registry (right-column panels and the tools and commands their
   * actions call): every enabled extension is one provider, removed when it is disabled.
   */
  attachSurfaces(registry: UiSurfaceRegistry): void {
    this.#surfaces = registry;
    for (const entry of this.#installed.values()) if (this.#active(entry)) this.#registerSurface(entry);
  }

  /** Sets what runs an extension command bound to a workflow. */
  setCommandRunner(runner: WorkflowCommandRunner): void {
    this.#commandRunner = runner;
  }

  #registerSurface(entry: Installed): void {
    const registry = this.#surfaces;
    if (registry === undefined) return;
    const id = entry.record.id;
    this.#surfaceRemovers.get(id)?.();
    this.#surfaceRemovers.set(
      id,
      registry.register({
        source: extensionSource(id),
        panels: () =>
          (this.#active(entry) ? (entry.loaded?.panels ?? []) : []).map((panel) => ({
            id: `${id}.${panel.id}`,
            source: extensionSource(id),
            title: panel.title,
            schema: panel.schema,
          })),
        tool: (name) => (this.#active(entry) ? entry.handlers.get(name) : undefined),
        command: (name) => {
          const command = this.#active(entry)
            ? entry.loaded?.commands.find((item) => item.name === name)
            : undefined;
          if (command === undefined) return undefined;
          return {
            name,
            run: async (argumentsMap, context) => {
              if (command.template !== undefined) {
                const values = Object.fromEntries(
                  Object.entries(argumentsMap).map(([key, value]) => [
                    key,
                    typeof value === 'string' ? value : JSON.stringify(value),
                  ]),
                );
                return { output: fillTemplate(command.template, values) };
              }
              const runner = this.#commandRunner;
              if (runner === undefined)
                return { output: 'Error [WORKFLOW_NOT_FOUND]: workflows cannot run here.', isError: true };
              return runner(id, command, argumentsMap, context.conversationId);
            },
          };
        },
      }),
    );
  }

  #workflowServices(
    id: string,
    workflowId: string,
    base: NonNullable<ExtensionHostOptions['workflows']>,
  ): WorkflowServices {
    const live = () => {
      const entry = this.#installed.get(id);
      return entry === undefined || !this.#active(entry)
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
        (this.#installed.get(id)?.loaded?.intents ?? [])
          .filter((intent) => intent.workflow === workflowId)
          .flatMap((intent) => intent.slots),
      formFields: (formId) => {
        const form = this.#installed.get(id)?.loaded?.forms.find((item) => item.id === formId);
        const root = (form?.schema as { root?: { component?: string; fields?: unknown } } | undefined)?.root;
        return root?.component === 'Form' && Array.isArray(root.fields)
          ? (root.fields as FormField[])
          : undefined;
      },
      tool: async (name, conversationId) => {
        const entry = this.#installed.get(id);
        if (entry === undefined || !this.#active(entry)) return undefined;
        const handler = entry.handlers.get(name);
        if (handler === undefined) return undefined;
        const { policy } = await this.#options.catalog.policyOf(name, conversationId);
        return { handler, policy };
      },
    };
  }

  #deactivate(entry: Installed): void {
    const id = entry.record.id;
    this.#surfaceRemovers.get(id)?.();
    this.#surfaceRemovers.delete(id);
    this.#options.settingsRegistry.unregister('extension', id);
    this.#options.commands.unregister(id);
    this.#parsers?.unregisterSource(extensionSource(id));
    for (const name of entry.handlers.keys()) this.#options.catalog.forget(name);
    this.#options.knowledge
      ?.forgetPacks(id)
      .catch((error: unknown) =>
        this.#logger.warn({ err: error, extension: id }, 'a knowledge pack is not removed from the index'),
      );
    this.#generation++;
  }

  /** A tool as live now: undefined once its extension is disabled, uninstalled, or the tool was edited away. */
  #liveTool(id: string, name: string): LiveHttpTool | undefined {
    const entry = this.#installed.get(id);
    if (entry === undefined || !this.#active(entry) || entry.loaded === undefined) return undefined;
    const definition = entry.loaded.tools.find((tool) => tool.name === name);
    if (definition === undefined) return undefined;
    const { settingsService } = this.#options;
    return {
      definition,
      extensionId: id,
      domains: entry.record.permissions.network.domains,
      setting: (key) => settingsService.value(extensionSettingKey(id, key)),
      secret: (key) => settingsService.revealSecret(extensionSettingKey(id, key)),
    };
  }

  // ---- hot reload --------------------------------------------------------------------------

  #watch(entry: Installed): void {
    if (this.#options.watch === false || this.#closed) return;
    const directory = this.#installedDirectory(entry.record.id);
    try {
      entry.watcher = watch(directory, { recursive: true }, (_event, file) => {
        const changed = typeof file === 'string' ? file.split(sep).join('/') : '';
        const agentFolder = entry.loaded?.agentDirectory;
        if (
          agentFolder !== undefined &&
          changed !== '' &&
          `${directory}/${changed}`.startsWith(`${agentFolder}/`)
        ) {
          // Code loads only at start: an edit there waits for a restart.
          entry.pendingRestart = true;
          return;
        }
        clearTimeout(entry.timer);
        entry.timer = setTimeout(() => {
          if (this.#installed.get(entry.record.id) !== entry) return;
          this.reload(entry.record.id).catch((error: unknown) =>
            this.#logger.warn({ err: error, extension: entry.record.id }, 'reloading an extension failed'),
          );
        }, this.#options.reloadDelayMs ?? 150);
        entry.timer.unref();
      });
      entry.watcher.on('error', (error) =>
        this.#logger.warn({ err: error, extension: entry.record.id }, 'watching an extension failed'),
      );
    } catch (error) {
      this.#logger.warn(
        { err: error, extension: entry.record.id },
        'an extension folder cannot be watched; edits apply after a restart',
      );
    }
  }

  /**
   * Loads the extension's files again. When they load, the new version replaces the old one;
   * when they do not, the last good version stays active and the problems are reported.
   */
  async reload(id: string): Promise<InstalledExtension> {
    const entry = this.#require(id);
    const result = await this.#load(this.#installedDirectory(id));
    if (this.#installed.get(id) !== entry) return this.#view(entry);
    entry.reloadedAt = Date.now();
    const problems = result.ok
      ? result.extension.manifest.id !== id
        ? [
            {
              path: 'extension.json',
              message: `the id changed to '${result.extension.manifest.id}'; install it as a new extension`,
            },
          ]
        : !samePermissions(result.extension.manifest.requires, entry.record.permissions)
          ? [
              {
                path: 'extension.json',
                message: 'the permissions changed; install the extension again to accept them',
              },
            ]
          : this.#conflicts(result.extension)
      : result.problems;
    if (!result.ok || problems.length > 0) {
      entry.problems = problems;
      this.#logger.warn(
        { extension: id, problems },
        'an edited extension does not load; the last good version stays active',
      );
      this.#changed(id, 'reload_failed');
      return this.#view(entry);
    }
    const active = this.#active(entry);
    if (active) this.#deactivate(entry);
    entry.loaded = result.extension;
    entry.problems = [];
    if (active) this.#activate(entry);
    this.#generation++;
    this.#changed(id, 'reloaded');
    return this.#view(entry);
  }

  #changed(id: string, change: ExtensionsChangedPayload['change']): void {
    const payload: ExtensionsChangedPayload = { extension_id: id, change };
    this.#options.stream?.publish('extensions.changed', payload);
  }

  // ---- what is provided --------------------------------------------------------------------

  list(): InstalledExtension[] {
    return [...this.#installed.values()]
      .map((entry) => this.#view(entry))
      .sort((a, b) => a.id.localeCompare(b.id));
  }

  get(id: string): InstalledExtension {
    return this.#view(this.#require(id));
  }

  #view(entry: Installed): InstalledExtension {
    const { record } = entry;
    return {
      id: record.id,
      version: entry.loaded?.manifest.version ?? record.version,
      api_version: record.apiVersion,
      name: record.manifest.name,
      description: record.manifest.description,
      state: record.state,
      permissions: record.permissions,
      counts: entry.loaded === undefined ? {} : countsOf(entry.loaded),
      installed_at: new Date(record.installedAt).toISOString(),
      updated_at: new Date(record.updatedAt).toISOString(),
      problems: entry.problems,
      reloaded_at: entry.reloadedAt === null ? null : new Date(entry.reloadedAt).toISOString(),
      pending_restart: entry.pendingRestart,
    };
  }

  /** Loaded versions of the enabled extensions. */
  activeExtensions(): LoadedExtension[] {
    return [...this.#installed.values()].flatMap((entry) =>
      this.#active(entry) && entry.loaded !== undefined ? [entry.loaded] : [],
    );
  }

  /** The tool handlers of enabled extensions whose tools settings leave enabled. */
  async tools(): Promise<ToolHandler[]> {
    const stored = await this.#options.catalog.stored();
    return [...this.#installed.values()].flatMap((entry) =>
      this.#active(entry)
        ? [...entry.handlers.values()].filter((tool) => this.#options.catalog.enabledIn(stored, tool.name))
        : [],
    );
  }

  /** Panels, cards and forms of enabled extensions, for the UI-schema renderer. */
  uiEntries(): ExtensionUiEntry[] {
    return this.activeExtensions().flatMap((extension) => {
      const of = (kind: ExtensionUiEntry['kind'], assets: LoadedExtension['panels']) =>
        assets.map((asset) => ({
          kind,
          id: asset.id,
          extension_id: extension.manifest.id,
          title: asset.title,
          schema: asset.schema,
        }));
      return [
        ...of('panel', extension.panels),
        ...of('card', extension.cards),
        ...of('form', extension.forms),
      ];
    });
  }

  /**
   * The agent-framework components (tools, skills, plugins folders) of the extensions that were
   * enabled when the server started, for every agent built.
   */
  componentSource(): ComponentSource {
    return {
      load: async (options): Promise<LoadedComponents> => {
        const empty = { tools: [], skills: [], plugins: [] };
        const diagnostics: LoadedComponents['diagnostics'][number][] = [];
        const merged = {
          global: { ...empty } as LoadedComponents['global'],
          project: { ...empty },
          diagnostics,
        };
        for (const [id, directory] of this.#agentDirectories) {
          const entry = this.#installed.get(id);
          if (entry === undefined || !this.#active(entry)) continue;
          const loaded = await this.#files.load({
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

  // ---- sources -----------------------------------------------------------------------------

  #toolSourceOn(source: string): boolean {
    if (source === 'builtin' || source === 'programmatic') return !this.#disabledSources.has('builtin');
    if (source === 'global' || source === 'project') return !this.#disabledSources.has('user');
    return true;
  }

  /** Whether a registry source is switched on. */
  sourceEnabled(source: string): boolean {
    if (source.startsWith('extension:')) {
      const entry = this.#installed.get(source.slice('extension:'.length));
      return entry !== undefined && entry.record.state === 'enabled';
    }
    return !this.#disabledSources.has(source);
  }

  /** One switch for everything a source provides (an extension's: the same as enabling it). */
  async setSourceEnabled(source: string, enabled: boolean): Promise<void> {
    if (source.startsWith('extension:')) {
      await this.setEnabled(source.slice('extension:'.length), enabled);
      return;
    }
    if (source !== 'builtin' && source !== 'user' && source !== 'profile')
      throw new ApiError('INVALID_INPUT', `Unknown source '${source}'.`, { details: { source } });
    await this.#repository.setSource(source, enabled, Date.now());
    if (enabled) this.#disabledSources.delete(source);
    else this.#disabledSources.add(source);
    this.#generation++;
  }

  /**
   * The installed intent free input asks for, and the request that starts it (its workflow's tool
   * with the slots found, or its command's template); undefined with no intent matching (T0).
   */
  intentRequest(text: string): { match: IntentMatch; request: string } | undefined {
    const intents = this.activeExtensions().flatMap((extension) =>
      extension.intents.map((intent) => ({ source: extensionSource(extension.manifest.id), intent })),
    );
    if (intents.length === 0) return undefined;
    const match = matchIntent(intents, text);
    if (match === undefined) return undefined;
    const extension = this.activeExtensions().find(
      (item) => extensionSource(item.manifest.id) === match.source,
    );
    const intent = extension?.intents.find((item) => item.id === match.intent_id);
    if (extension === undefined || intent === undefined) return undefined;
    const slots = Object.entries(match.slots).map(([name, value]) => `${name} = ${value}`);
    if (intent.workflow !== undefined) {
      const workflow = extension.workflows.find((item) => item.id === intent.workflow);
      if (workflow === undefined) return undefined;
      return {
        match,
        request: `${text}\n\n(The intent “${intent.title}” of ${match.source}: run the workflow “${workflow.title}” (call ${workflowToolName(workflow.id)})${slots.length === 0 ? '' : ` with ${slots.join(', ')}`}.)`,
      };
    }
    const command = extension.commands.find((item) => item.name === intent.command);
    if (command?.template === undefined) return undefined;
    return { match, request: fillTemplate(command.template, match.slots) };
  }

  /**
   * A message that is an enabled extension's workflow command — `/city-report city=Oslo`, or
   * `/city-report Oslo` for its first parameter — as the workflow tool's call; undefined for any
   * other text (T0: nothing installed, nothing recognised).
   */
  workflowCommand(text: string): { toolName: string; arguments: Record<string, unknown> } | undefined {
    if (this.#options.workflows === undefined) return undefined;
    const typed = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
    if (typed === null) return undefined;
    const [, name = '', rest = ''] = typed;
    for (const extension of this.activeExtensions()) {
      const command = extension.commands.find((item) => item.name === name && item.workflow !== undefined);
      const workflow = extension.workflows.find((item) => item.id === command?.workflow);
      if (command === undefined || workflow === undefined) continue;
      const values = commandArguments(
        command.parameters.map((parameter) => parameter.name),
        rest,
      );
      // Typed text is text: a number or boolean parameter gets its value as one.
      for (const parameter of command.parameters) {
        const value = values[parameter.name];
        if (typeof value !== 'string') continue;
        if (parameter.type === 'number' && Number.isFinite(Number(value)))
          values[parameter.name] = Number(value);
        if (parameter.type === 'boolean') values[parameter.name] = value === 'true';
      }
      return { toolName: workflowToolName(workflow.id), arguments: values };
    }
    return undefined;
  }

  /** Ids of the installed extensions, for the registry. */
  installedIds(): string[] {
    return [...this.#installed.keys()];
  }

  /** The loaded version of an installed extension (enabled or not). */
  loadedOf(id: string): LoadedExtension | undefined {
    return this.#installed.get(id)?.loaded;
  }

  /** Lists what is under `installed/` but not in the database (left by a crash mid-install). */
  async strayFolders(): Promise<string[]> {
    const names = await readdir(join(this.root, 'installed')).catch(() => [] as string[]);
    return names.filter((name) => !this.#installed.has(name));
  }

  /** The source tag of an extension. */
  static source(id: string): string {
    return extensionSource(id);
  }
}
