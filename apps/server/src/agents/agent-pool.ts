import {
  AgentBuilder,
  FileComponentSource,
  type Agent,
  type ComponentSource,
  type Plugin,
  type SessionStorage,
  type ToolHandler,
} from '@youyou/agent';
import type { ServerLogger } from '../logging/index.ts';
import type { ProviderRegistry } from '../providers/index.ts';

/** An agent lent to one run; `release()` gives it back. */
export interface AgentLease {
  readonly agent: Agent;
  release(): void;
}

interface PoolEntry {
  agent: Agent;
  cwd: string;
  fingerprint: string;
  busy: boolean;
  /** Set when the entry must be rebuilt once its run ends. */
  stale: boolean;
  timer: NodeJS.Timeout | undefined;
}

/** What the workbench adds to every agent: its tools and plugins, and a filter over component folders. */
export interface AgentExtensions {
  components(): Promise<{ tools: ToolHandler[]; plugins: Plugin[] }>;
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
  extensions?: AgentExtensions;
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

  async acquire(conversationId: string, cwd: string): Promise<AgentLease> {
    if (this.#closed) throw new Error('The agent pool is shut down.');
    const fingerprint = `${await this.#options.providers.fingerprint()}|${(await this.#options.extensions?.fingerprint()) ?? ''}`;
    let entry = this.#entries.get(conversationId);
    if (entry !== undefined && (entry.cwd !== cwd || entry.fingerprint !== fingerprint) && !entry.busy) {
      this.#evict(conversationId, entry);
      entry = undefined;
    }
    if (entry === undefined) {
      entry = {
        agent: await this.#build(cwd),
        cwd,
        fingerprint,
        busy: false,
        stale: false,
        timer: undefined,
      };
      this.#entries.set(conversationId, entry);
    }
    clearTimeout(entry.timer);
    entry.busy = true;
    const held = entry;
    let released = false;
    return {
      agent: held.agent,
      release: () => {
        if (released) return;
        released = true;
        held.busy = false;
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

  async #build(cwd: string): Promise<Agent> {
    const { providers, sessionStorage, home, logger, extensions } = this.#options;
    const agentLogger = logger.child({ component: 'agent' });
    const files = new FileComponentSource({ logger: agentLogger });
    const builder = new AgentBuilder({ cwd, home })
      .setLogger(agentLogger)
      .setSessionStorage(sessionStorage)
      .addComponentSource(extensions === undefined ? files : extensions.wrapSource(files));
    if (extensions !== undefined) {
      const { tools, plugins } = await extensions.components();
      for (const tool of tools) builder.addTool(tool);
      for (const plugin of plugins) builder.addPlugin(plugin);
    }
    for (const provider of await providers.build()) builder.addProvider(provider);
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
