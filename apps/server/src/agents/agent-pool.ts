import {
  AgentBuilder,
  type Agent,
  type ComponentSource,
  type LoadedComponents,
  type ModelProvider,
  type Plugin,
  type SessionStorage,
  type ToolHandler,
} from '@youyou/agent';
import { FileComponentSource } from '@youyou/agent/files';
import type { ServerLogger } from '../logging/index.ts';
import type { ProviderRegistry } from '../providers/index.ts';
import { runShapingPlugin, shapedProvider, type RunShaping, type RunShapingSlot } from './run-shaping.ts';

/** An agent lent to one run; `release()` gives it back. */
export interface AgentLease {
  readonly agent: Agent;
  release(): void;
}

/** How a run wants its agent: the provider retry budget, and the shaping of its calls. */
export interface AcquireOptions {
  /** Replaces the providers' retry count; an agent built with another one is rebuilt. */
  retryBudget?: number | undefined;
  shaping?: RunShaping;
}

interface PoolEntry {
  agent: Agent;
  cwd: string;
  projectId: string | null;
  fingerprint: string;
  slot: RunShapingSlot;
  busy: boolean;
  /** Set when the entry must be rebuilt once its run ends. */
  stale: boolean;
  timer: NodeJS.Timeout | undefined;
}

/** What the workbench adds to every agent: its tools and plugins, and a filter over component folders. */
export interface AgentExtensions {
  /** The enabled built-in tools, the plugins, and which other tools settings leave enabled. */
  components(): Promise<{ tools: ToolHandler[]; plugins: Plugin[]; enabled: (name: string) => boolean }>;
  wrapSource(source: ComponentSource): ComponentSource;
  /** Changes when the agents must be rebuilt (say, a tool was disabled). */
  fingerprint(): Promise<string>;
}

export interface AgentPoolOptions {
  providers: ProviderRegistry;
  sessionStorage: SessionStorage;
  /** The YouYou home: global components and config.yaml. */
  home: string;
  logger: ServerLogger;
  /** An idle agent is shut down after this long; default five minutes. */
  idleMs?: number;
  /**
   * More registration channels for an agent of a project (MCP servers' tools); each is read
   * again at every session start, like the `~/.youyou` folders.
   */
  componentSources?: (scope: { projectId: string | null; cwd: string }) => ComponentSource[];
  /** The workbench's own tools (artifacts, sub-agents …), given to every agent. */
  tools?: () => readonly ToolHandler[];
  /** The workbench's programmatic plugins (tool-result overflow …). */
  plugins?: () => readonly Plugin[];
  /** The workbench's built-in tools and policy plugins, and a filter over every component source. */
  extensions?: AgentExtensions;
}

/** An agent of its own for one sub-agent run: a subset of the tools, metered providers. */
export interface DetachedAgentOptions {
  cwd: string;
  projectId: string | null;
  /** Only tools whose name passes are registered (workbench and file tools alike). */
  allowTool: (name: string) => boolean;
  /** Wraps each provider, e.g. to count tokens as they stream. */
  wrapProvider?: (provider: ModelProvider) => ModelProvider;
}

/** How long the load made at build stays good for the first session's start. */
const BUILD_LOAD_REUSE_MS = 5_000;

/**
 * The component folders as read for building the agent, handed once more to the session the run
 * opens right after (issue 28: the core reads every source again when a session starts, so a new
 * conversation scanned `~/.youyou` and the project's `.youyou` twice before its first model call).
 * A file change takes effect from the next run, which this keeps: every later session of the
 * pooled agent reads the folders afresh, and so does a first session that comes late.
 */
function sharedWithFirstSession(source: ComponentSource): ComponentSource {
  let kept: { loaded: Promise<LoadedComponents>; at: number } | undefined;
  let loads = 0;
  return {
    load(options) {
      loads += 1;
      if (loads === 2 && kept !== undefined && performance.now() - kept.at < BUILD_LOAD_REUSE_MS) {
        const { loaded } = kept;
        kept = undefined;
        return loaded;
      }
      kept = undefined;
      const loaded = source.load(options);
      if (loads === 1) kept = { loaded, at: performance.now() };
      return loaded;
    },
  };
}

/** A component source that keeps only the tools `allow` passes (each name once per layer). */
function filteredSource(source: ComponentSource, allow: (name: string) => boolean): ComponentSource {
  const keep = <Entry extends { tool: { name: string } }>(entries: readonly Entry[]): Entry[] => {
    const seen = new Set<string>();
    return entries.filter((entry) => {
      if (!allow(entry.tool.name) || seen.has(entry.tool.name)) return false;
      seen.add(entry.tool.name);
      return true;
    });
  };
  return {
    async load(options) {
      const loaded = await source.load(options);
      return {
        ...loaded,
        global: { ...loaded.global, tools: keep(loaded.global.tools) },
        project: { ...loaded.project, tools: keep(loaded.project.tools) },
      };
    },
  };
}

/**
 * One `Agent` per active conversation (the agent core allows one running session per agent), built
 * for the conversation's working directory, reused by its next runs, and shut down when idle or
 * when the providers change. Two conversations therefore run at once, each agent keeping the
 * one-session rule.
 *
 * @example
 * const lease = await pool.acquire(conversationId, cwd);
 * try { const session = await lease.agent.resumeSession(runId); … } finally { lease.release(); }
 */
export class AgentPool {
  readonly #options: AgentPoolOptions;
  readonly #entries = new Map<string, PoolEntry>();
  #closed = false;

  constructor(options: AgentPoolOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#entries.size;
  }

  async acquire(
    conversationId: string,
    cwd: string,
    projectId: string | null = null,
    options: AcquireOptions = {},
  ): Promise<AgentLease> {
    if (this.#closed) throw new Error('The agent pool is shut down.');
    const fingerprint = `${await this.#options.providers.fingerprint()}:${options.retryBudget ?? ''}|${(await this.#options.extensions?.fingerprint()) ?? ''}`;
    let entry = this.#entries.get(conversationId);
    if (
      entry !== undefined &&
      (entry.cwd !== cwd || entry.projectId !== projectId || entry.fingerprint !== fingerprint) &&
      !entry.busy
    ) {
      this.#evict(conversationId, entry);
      entry = undefined;
    }
    if (entry === undefined) {
      const slot: RunShapingSlot = { current: undefined };
      entry = {
        agent: await this.#build(cwd, projectId, { slot, retryBudget: options.retryBudget }),
        cwd,
        projectId,
        fingerprint,
        slot,
        busy: false,
        stale: false,
        timer: undefined,
      };
      this.#entries.set(conversationId, entry);
    }
    clearTimeout(entry.timer);
    entry.busy = true;
    entry.slot.current = options.shaping;
    const held = entry;
    let released = false;
    return {
      agent: held.agent,
      release: () => {
        if (released) return;
        released = true;
        held.busy = false;
        held.slot.current = undefined;
        if (held.stale || this.#closed) this.#evict(conversationId, held);
        else this.#scheduleEviction(conversationId, held);
      },
    };
  }

  /** Providers changed here: idle agents go now, busy ones after their run. */
  invalidate(): void {
    for (const [conversationId, entry] of this.#entries) {
      if (entry.busy) entry.stale = true;
      else this.#evict(conversationId, entry);
    }
  }

  /** The conversation is gone: its agent goes once idle. */
  forget(conversationId: string): void {
    const entry = this.#entries.get(conversationId);
    if (entry === undefined) return;
    if (entry.busy) entry.stale = true;
    else this.#evict(conversationId, entry);
  }

  async shutdown(): Promise<void> {
    this.#closed = true;
    const agents = [...this.#entries.values()].map((entry) => {
      clearTimeout(entry.timer);
      return entry.agent;
    });
    this.#entries.clear();
    await Promise.allSettled(agents.map((agent) => agent.shutdown()));
  }

  /**
   * An agent outside the pool, for one sub-agent run (the core allows one running session per
   * agent, so a child cannot share its parent's). The caller shuts it down.
   */
  async buildDetached(options: DetachedAgentOptions): Promise<Agent> {
    if (this.#closed) throw new Error('The agent pool is shut down.');
    return this.#build(options.cwd, options.projectId, { detached: options });
  }

  async #build(
    cwd: string,
    projectId: string | null,
    options: { detached?: DetachedAgentOptions; slot?: RunShapingSlot; retryBudget?: number | undefined },
  ): Promise<Agent> {
    const { detached, slot, retryBudget } = options;
    const { providers, sessionStorage, home, logger, componentSources, extensions } = this.#options;
    // Disabled tools leave every source, and the tool catalog learns each tool's mutating flag.
    const restrict = (source: ComponentSource): ComponentSource => {
      const known = extensions === undefined ? source : extensions.wrapSource(source);
      return detached === undefined ? known : filteredSource(known, detached.allowTool);
    };
    const agentLogger = logger.child({ component: 'agent' });
    const files: ComponentSource = new FileComponentSource({ logger: agentLogger });
    // The file source is ours (wrapped by the tool catalog): the builder must not add its own.
    const builder = new AgentBuilder({ cwd, home, fileComponents: false })
      .setLogger(agentLogger)
      .setSessionStorage(sessionStorage)
      .addComponentSource(restrict(sharedWithFirstSession(files)));
    for (const source of componentSources?.({ projectId, cwd }) ?? [])
      builder.addComponentSource(restrict(source));
    if (slot !== undefined) builder.addPlugin(runShapingPlugin(slot));
    const built = await providers.build(retryBudget === undefined ? {} : { maxRetries: retryBudget });
    for (const provider of built) {
      const shaped = slot === undefined ? provider : shapedProvider(provider, slot);
      builder.addProvider(detached?.wrapProvider === undefined ? shaped : detached.wrapProvider(shaped));
    }
    const extended = await extensions?.components();
    for (const tool of this.#options.tools?.() ?? []) {
      if (extended !== undefined && !extended.enabled(tool.name)) continue;
      if (detached === undefined || detached.allowTool(tool.name)) builder.addTool(tool);
    }
    for (const plugin of this.#options.plugins?.() ?? []) builder.addPlugin(plugin);
    for (const tool of extended?.tools ?? []) {
      if (detached === undefined || detached.allowTool(tool.name)) builder.addTool(tool);
    }
    for (const plugin of extended?.plugins ?? []) builder.addPlugin(plugin);
    return builder.build();
  }

  #scheduleEviction(conversationId: string, entry: PoolEntry): void {
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      if (!entry.busy && this.#entries.get(conversationId) === entry) this.#evict(conversationId, entry);
    }, this.#options.idleMs ?? 300_000);
    entry.timer.unref();
  }

  #evict(conversationId: string, entry: PoolEntry): void {
    clearTimeout(entry.timer);
    if (this.#entries.get(conversationId) === entry) this.#entries.delete(conversationId);
    entry.agent.shutdown().catch((error: unknown) => {
      this.#options.logger.warn({ err: error, conversationId }, 'an agent failed to shut down');
    });
  }
}
