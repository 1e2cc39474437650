import { mkdir, readdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { ComponentSource, ToolHandler } from '@youyou/agent';
import { FileComponentSource } from '@youyou/agent/files';
import {
  ExtensionPermissionsSchema,
  extensionSource,
  type ExtensionInstallRequest,
  type ExtensionPreview,
  type ExtensionProblem,
  type ExtensionsChangedPayload,
  type ExtensionUiEntry,
  type InstalledExtension,
} from '@youyou/contracts';
import pino from 'pino';
import type { WorkbenchDatabase } from '../database/index.ts';
import type { ParserRegistry } from '../documents/index.ts';
import { ApiError } from '../errors/index.ts';
import type { CommandRegistry } from '../library/index.ts';
import type { LightweightModel } from '../hitl/index.ts';
import type { ServerLogger } from '../logging/index.ts';
import type { SettingsRegistry, SettingsService } from '../settings/index.ts';
import type { ToolCatalog } from '../tools/index.ts';
import type { UiSurfaceRegistry } from '../ui-surfaces/index.ts';
import type { WorkbenchStream } from '../workbench-stream/index.ts';
import {
  registerExtensionCommands,
  unregisterExtensionCommands,
  workflowCommandCall,
} from './extension-commands.ts';
import { extensionComponentSource } from './extension-components.ts';
import { removeFolder, stageFromPath, unpackArchive } from './extension-files.ts';
import { IntentGate } from './intent-gate.ts';
import {
  forgetExtensionKnowledge,
  indexExtensionKnowledge,
  type KnowledgePacks,
} from './extension-knowledge.ts';
import { countsOf, loadExtension, type LoadedExtension, type LoadOptions } from './extension-loader.ts';
import { registerExtensionParsers, unregisterExtensionParsers } from './extension-parsers.ts';
import { ExtensionRepository, type ExtensionRecord } from './extension-repository.ts';
import {
  registerExtensionSettings,
  settingConflicts,
  unregisterExtensionSettings,
} from './extension-settings.ts';
import { registerExtensionSurface, uiEntriesOf } from './extension-surfaces.ts';
import {
  enabledExtensionTools,
  registerExtensionTools,
  toolConflicts,
  unregisterExtensionTools,
  type ExtensionWorkflowOptions,
  type ToolRegistration,
} from './extension-tools.ts';
import { ExtensionStaging } from './extension-staging.ts';
import { unwatchExtension, watchExtension } from './extension-watch.ts';
import { entryOf, isActive, samePermissions, viewOf, type Installed } from './installed-extension.ts';

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
  workflows?: ExtensionWorkflowOptions;
  /** Where knowledge packs are indexed (the knowledge service); absent: packs are listed only. */
  knowledge?: KnowledgePacks;
  /**
   * Ingest's parser registry (spec §4.11 ParserProvider): every enabled extension's parsers are
   * registered as `extension:<id>/<parser>`, removed when it is disabled or uninstalled.
   */
  parsers?: ParserRegistry;
  /**
   * The UI-surface registry (right-column panels and the tools and commands their actions call):
   * every enabled extension is one provider, removed when it is disabled.
   */
  surfaces?: UiSurfaceRegistry;
  /** The intent gate's second step after its rules (spec §4.6 intentgate); absent: rules only. */
  intentModel?: LightweightModel;
  /** Hot reload of declarative assets (default on); the delay gathers an editor's several writes. */
  watch?: boolean;
  reloadDelayMs?: number;
}

/**
 * The extension host (spec §4.6): installs extensions from a local folder or archive after the
 * user has seen their permissions, loads them fail-closed, registers what they provide into the
 * workbench's registries, reloads declarative assets when their files change (a bad edit keeps
 * the last good version), and unregisters everything on disable or uninstall. Agent-framework
 * folders (code) load only when the server starts. Each kind of registration is its own file
 * beside this one — settings, commands, tools (HTTP and workflow), UI surfaces, document parsers,
 * knowledge packs, agent components, intents — and this class composes them.
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
  readonly #staging: ExtensionStaging;
  readonly #files = new FileComponentSource();
  /** Agent-framework folders loaded at start (code loads only then). */
  readonly #agentDirectories = new Map<string, string>();
  #disabledSources = new Set<string>();
  readonly #surfaceRemovers = new Map<string, () => void>();
  readonly #tools: ToolRegistration;
  #generation = 0;
  /** The intent gate over the active extensions' intents (spec §4.6 intentgate). */
  readonly intents: IntentGate;
  #closed = false;

  constructor(options: ExtensionHostOptions) {
    this.#options = options;
    this.intents = new IntentGate(() => this.activeExtensions(), options.intentModel);
    this.#repository = new ExtensionRepository(options.database.db);
    this.#logger = options.logger ?? pino({ level: 'silent' });
    this.#staging = new ExtensionStaging(join(options.dataDirectory, 'extensions', 'staging'));
    this.#tools = {
      catalog: options.catalog,
      settingsService: options.settingsService,
      workflows: options.workflows,
      current: (id) => this.#installed.get(id),
    };
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
    await this.#staging.reset();
    this.#disabledSources = new Set(await this.#repository.disabledSources());
    this.#options.catalog.setSourceSwitch((source) => this.#toolSourceOn(source));
    for (const record of await this.#repository.list()) {
      const entry = entryOf(record);
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
    for (const entry of this.#installed.values()) unwatchExtension(entry);
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
    const staged = await this.#staging.stage(fill);
    if ('problems' in staged) {
      return {
        staging_id: staged.stagingId,
        ok: false,
        manifest: null,
        permissions: null,
        counts: {},
        replaces: null,
        problems: staged.problems,
      };
    }
    const result = await this.#load(staged.directory);
    const manifest = result.ok ? result.extension.manifest : (result.manifest ?? null);
    const existing = manifest === null ? undefined : this.#installed.get(manifest.id);
    return {
      staging_id: staged.stagingId,
      ok: result.ok,
      manifest,
      permissions: manifest?.requires ?? null,
      counts: result.ok ? countsOf(result.extension) : {},
      replaces: existing === undefined ? null : existing.record.version,
      problems: result.ok ? [] : result.problems,
    };
  }

  /**
   * Installs a staged extension (replacing an installed one of the same id). Refused unless it
   * loads without a problem and `accepted_permissions` equals what it asks for.
   */
  async install(request: ExtensionInstallRequest): Promise<InstalledExtension> {
    const stagedDirectory = this.#staging.directoryOf(request.staging_id);
    if (stagedDirectory === undefined)
      throw new ApiError('NOT_FOUND', 'No staged extension with this id: preview it again.', {
        details: { staging_id: request.staging_id },
      });
    const result = await this.#load(stagedDirectory);
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
      unwatchExtension(previous);
      this.#installed.delete(manifest.id);
    }
    const target = this.#installedDirectory(manifest.id);
    await removeFolder(target);
    await rename(stagedDirectory, target);
    this.#staging.forget(request.staging_id);
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
    const entry = entryOf(record);
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
    return viewOf(entry);
  }

  /** Names the extension would take that another source has (tools, commands, settings). */
  #conflicts(extension: LoadedExtension): ExtensionProblem[] {
    return [
      ...toolConflicts(this.#options.catalog, extension, (name) => this.#toolOwner(name)),
      ...settingConflicts(this.#options.settingsRegistry, extension),
    ];
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
    return viewOf(entry);
  }

  /** Unregisters everything the extension provided and deletes its files; stored setting values stay. */
  async uninstall(id: string): Promise<void> {
    const entry = this.#require(id);
    this.#deactivate(entry);
    unwatchExtension(entry);
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

  /** Registers what the loaded version provides, kind by kind. */
  #activate(entry: Installed): void {
    const extension = entry.loaded;
    if (extension === undefined) return;
    const { settingsRegistry, commands } = this.#options;
    registerExtensionSettings(settingsRegistry, extension);
    registerExtensionCommands(commands, extension, {
      workflows: this.#options.workflows !== undefined,
      logger: this.#logger,
    });
    registerExtensionTools(entry, extension, this.#tools);
    this.#registerSurface(entry);
    this.#registerParsers(entry);
    indexExtensionKnowledge(this.#options.knowledge, extension, this.#logger);
    this.#generation++;
  }

  #registerParsers(entry: Installed): void {
    if (this.#options.parsers === undefined || entry.loaded === undefined) return;
    registerExtensionParsers(this.#options.parsers, entry.loaded, this.#logger);
  }

  #registerSurface(entry: Installed): void {
    const registry = this.#options.surfaces;
    if (registry === undefined) return;
    const id = entry.record.id;
    this.#surfaceRemovers.get(id)?.();
    this.#surfaceRemovers.set(id, registerExtensionSurface(registry, entry));
  }

  #deactivate(entry: Installed): void {
    const id = entry.record.id;
    this.#surfaceRemovers.get(id)?.();
    this.#surfaceRemovers.delete(id);
    unregisterExtensionSettings(this.#options.settingsRegistry, id);
    unregisterExtensionCommands(this.#options.commands, id);
    unregisterExtensionParsers(this.#options.parsers, id);
    unregisterExtensionTools(entry, this.#options.catalog);
    forgetExtensionKnowledge(this.#options.knowledge, id, this.#logger);
    this.#generation++;
  }

  // ---- hot reload --------------------------------------------------------------------------

  #watch(entry: Installed): void {
    if (this.#options.watch === false || this.#closed) return;
    const id = entry.record.id;
    watchExtension(entry, {
      directory: this.#installedDirectory(id),
      delayMs: this.#options.reloadDelayMs ?? 150,
      logger: this.#logger,
      reload: () => {
        if (this.#installed.get(id) !== entry) return;
        this.reload(id).catch((error: unknown) =>
          this.#logger.warn({ err: error, extension: id }, 'reloading an extension failed'),
        );
      },
    });
  }

  /**
   * Loads the extension's files again. When they load, the new version replaces the old one;
   * when they do not, the last good version stays active and the problems are reported.
   */
  async reload(id: string): Promise<InstalledExtension> {
    const entry = this.#require(id);
    const result = await this.#load(this.#installedDirectory(id));
    if (this.#installed.get(id) !== entry) return viewOf(entry);
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
      return viewOf(entry);
    }
    const active = isActive(entry);
    if (active) this.#deactivate(entry);
    entry.loaded = result.extension;
    entry.problems = [];
    if (active) this.#activate(entry);
    this.#generation++;
    this.#changed(id, 'reloaded');
    return viewOf(entry);
  }

  #changed(id: string, change: ExtensionsChangedPayload['change']): void {
    const payload: ExtensionsChangedPayload = { extension_id: id, change };
    this.#options.stream?.publish('extensions.changed', payload);
  }

  // ---- what is provided --------------------------------------------------------------------

  list(): InstalledExtension[] {
    return [...this.#installed.values()]
      .map((entry) => viewOf(entry))
      .sort((a, b) => a.id.localeCompare(b.id));
  }

  get(id: string): InstalledExtension {
    return viewOf(this.#require(id));
  }

  /** Loaded versions of the enabled extensions. */
  activeExtensions(): LoadedExtension[] {
    return [...this.#installed.values()].flatMap((entry) =>
      isActive(entry) && entry.loaded !== undefined ? [entry.loaded] : [],
    );
  }

  /** The tool handlers of enabled extensions whose tools settings leave enabled. */
  async tools(): Promise<ToolHandler[]> {
    return enabledExtensionTools(this.#installed.values(), this.#options.catalog);
  }

  /** Panels, cards and forms of enabled extensions, for the UI-schema renderer. */
  uiEntries(): ExtensionUiEntry[] {
    return uiEntriesOf(this.activeExtensions());
  }

  /**
   * The agent-framework components (tools, skills, plugins folders) of the extensions that were
   * enabled when the server started, for every agent built.
   */
  componentSource(): ComponentSource {
    const installed = this.#installed;
    const directories = this.#agentDirectories;
    return extensionComponentSource(this.#files, function* () {
      for (const [id, directory] of directories) {
        const entry = installed.get(id);
        if (entry !== undefined && isActive(entry)) yield [id, directory];
      }
    });
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
   * A message that is an enabled extension's workflow command — `/city-report city=Oslo`, or
   * `/city-report Oslo` for its first parameter — as the workflow tool's call; undefined for any
   * other text (T0: nothing installed, nothing recognised).
   */
  workflowCommand(text: string): { toolName: string; arguments: Record<string, unknown> } | undefined {
    if (this.#options.workflows === undefined) return undefined;
    return workflowCommandCall(this.activeExtensions(), text);
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
