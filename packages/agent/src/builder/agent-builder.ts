import path from 'node:path';
import type { AgentConfig } from '../config/index.ts';
import { AgentError } from '../errors/index.ts';
import { stderrLogger, type Logger } from '../logging/index.ts';
import { FileComponentSource, resolveYouyouHome } from '../files/index.ts';
import type { MemoryStorage } from '../memory/index.ts';
import { PluginLifecycle } from '../plugins/index.ts';
import type { Plugin, PluginConfig } from '../plugins/index.ts';
import { ModelRouter, type ModelInfo, type ModelProvider } from '../provider/index.ts';
import { Agent } from '../session/index.ts';
import type { SessionStorage } from '../session/index.ts';
import type { SkillDefinition } from '../skills/index.ts';
import type { ToolHandler } from '../tools/index.ts';
import { assemble, effectiveConfig, loadSources, type AssemblyInput } from '../components/index.ts';
import type { ComponentSource } from '../components/index.ts';

export interface AgentBuilderOptions {
  /**
   * The workspace root: project `.youyou/`, where files may be attached from, and the memory
   * namespace (its absolute path, spec §4.7). Defaults to `process.cwd()`.
   */
  cwd?: string;
  /** The YouYou home; defaults to `$YOUYOU_HOME`, then `~/.youyou`. Tests pass a temp dir. */
  home?: string;
  /**
   * Whether `build()` scans `{home}` and `{cwd}/.youyou` for file-registered tools, skills, plugins,
   * instructions and `config.yaml` (spec §6.1), re-reading them for each new session. Default
   * `true`; `false` builds from programmatic registrations only. Adding your own
   * `FileComponentSource` (say, with its own logger) replaces the default one.
   */
  fileComponents?: boolean;
  /**
   * The memory namespace. Defaults to the absolute workspace root, passed or defaulted alike;
   * `GLOBAL_NAMESPACE` ("global") shares memories across projects.
   */
  memoryNamespace?: string;
}

/** The YouYou home a builder uses when none is given. */
export function defaultHome(): string {
  return resolveYouyouHome();
}

/**
 * Registers providers, tools, skills, plugins, storages and config, then `build()`s an `Agent`
 * (spec §3, §6.1). Every validation happens in `build()`, which throws `AgentError` with the spec's
 * build codes.
 *
 * @example
 * const agent = await new AgentBuilder({ cwd: process.cwd() })
 *   .addProvider(provider)
 *   .addTool(clock)
 *   .setConfig({ maxToolCallsPerTurn: 20 })
 *   .build();
 */
export class AgentBuilder {
  readonly #cwd: string;
  readonly #home: string;
  readonly #namespace: string;
  readonly #fileComponents: boolean;
  readonly #providers: ModelProvider[] = [];
  readonly #tools: ToolHandler[] = [];
  readonly #skills: SkillDefinition[] = [];
  readonly #plugins: { plugin: Plugin; defaultConfig: PluginConfig }[] = [];
  readonly #sources: ComponentSource[] = [];
  readonly #sessionStorages: SessionStorage[] = [];
  readonly #memoryStorages: MemoryStorage[] = [];
  #config: Partial<AgentConfig> = {};
  #logger: Logger = stderrLogger;

  constructor(options: AgentBuilderOptions = {}) {
    this.#cwd = path.resolve(options.cwd ?? process.cwd());
    this.#home = path.resolve(options.home ?? defaultHome());
    // The same root whether `cwd` was passed or defaulted (spec §4.7).
    this.#namespace = options.memoryNamespace ?? this.#cwd;
    this.#fileComponents = options.fileComponents ?? true;
  }

  addProvider(provider: ModelProvider): this {
    this.#providers.push(provider);
    return this;
  }

  addTool(tool: ToolHandler): this {
    this.#tools.push(tool);
    return this;
  }

  addSkill(skill: SkillDefinition): this {
    this.#skills.push(skill);
    return this;
  }

  /** `defaultConfig` is the lowest layer of the plugin's configuration (spec §3.5). */
  addPlugin(plugin: Plugin, defaultConfig: PluginConfig = {}): this {
    this.#plugins.push({ plugin, defaultConfig });
    return this;
  }

  /** At most one; a second one fails the build with STORAGE_DUPLICATE. */
  setSessionStorage(storage: SessionStorage): this {
    this.#sessionStorages.push(storage);
    return this;
  }

  /** At most one; a second one fails the build with STORAGE_DUPLICATE. */
  setMemoryStorage(storage: MemoryStorage): this {
    this.#memoryStorages.push(storage);
    return this;
  }

  /** Merged over the defaults; `config.yaml` (from a file source) overrides these values. */
  setConfig(config: Partial<AgentConfig>): this {
    this.#config = { ...this.#config, ...config };
    return this;
  }

  setLogger(logger: Logger): this {
    this.#logger = logger;
    return this;
  }

  /**
   * Adds a registration channel; it is re-read per session. The `~/.youyou` folder loader is on by
   * default (`fileComponents`).
   */
  addComponentSource(source: ComponentSource): this {
    this.#sources.push(source);
    return this;
  }

  async build(): Promise<Agent> {
    if (this.#providers.length === 0) {
      throw new AgentError(
        'NO_MODEL_PROVIDER',
        'Register at least one model provider with addProvider() before build().',
      );
    }
    for (const [kind, count] of [
      ['session', this.#sessionStorages.length],
      ['memory', this.#memoryStorages.length],
    ] as const) {
      if (count > 1) {
        throw new AgentError(
          'STORAGE_DUPLICATE',
          `Only one ${kind} storage may be registered; ${count} were.`,
          {
            details: { kind, count },
          },
        );
      }
    }
    const router = await this.#router();
    const assembly: AssemblyInput = {
      programmatic: { tools: this.#tools, skills: this.#skills, plugins: this.#plugins },
      programmaticConfig: this.#config,
      sources:
        this.#fileComponents && !this.#sources.some((source) => source instanceof FileComponentSource)
          ? [new FileComponentSource(), ...this.#sources]
          : this.#sources,
      cwd: this.#cwd,
      home: this.#home,
      logger: this.#logger,
    };
    const loaded = await loadSources(assembly);
    for (const diagnostic of loaded?.diagnostics ?? []) {
      this.#logger.warn(
        {
          path: diagnostic.path,
          reason: diagnostic.reason,
          ...(diagnostic.line === undefined ? {} : { line: diagnostic.line }),
        },
        diagnostic.severity === 'warning' ? 'component loaded with a warning' : 'component folder skipped',
      );
    }
    const config = effectiveConfig(this.#config, loaded);
    // A typo here would otherwise surface only as a logged failure at the first session close.
    for (const modelId of [config.defaultModel, config.memoryModel])
      if (modelId !== undefined) router.route(modelId);
    // Validate the merge before any plugin initialises, so a bad registration starts nothing.
    // Only plugins in effect initialise: one a same-id file plugin overrides never runs its lifecycle.
    const checked = assemble(assembly, loaded);
    const lifecycle = new PluginLifecycle(this.#logger);
    const applied = new Map(
      (await lifecycle.initialize(checked.programmaticPlugins)).map((entry) => [entry.plugin, entry]),
    );
    return new Agent({
      assembly,
      snapshot: assemble(assembly, loaded, applied),
      applied,
      lifecycle,
      router,
      sessionStorage: this.#sessionStorages[0],
      memoryStorage: this.#memoryStorages[0],
      namespace: this.#namespace,
    });
  }

  async #router(): Promise<ModelRouter> {
    const seen = new Set<string>();
    const entries: { provider: ModelProvider; models: readonly ModelInfo[] }[] = [];
    for (const provider of this.#providers) {
      if (seen.has(provider.id)) {
        throw new AgentError(
          'NAME_CONFLICT',
          `Two model providers have the id '${provider.id}'; provider ids must be unique.`,
          {
            source: 'provider',
            details: { providerId: provider.id },
          },
        );
      }
      seen.add(provider.id);
      let models: readonly ModelInfo[];
      try {
        models = await provider.listModels();
      } catch (error) {
        throw AgentError.fromUnknown(error, 'PROVIDER_ERROR', { source: 'provider' });
      }
      entries.push({ provider, models });
    }
    return new ModelRouter(entries);
  }
}
