import { randomUUID } from 'node:crypto';
import type { AgentConfig } from '../config/index.ts';
import { ContextManager } from '../context/index.ts';
import { Compactor } from '../context/index.ts';
import { AgentError } from '../errors/index.ts';
import type { Logger } from '../logging/index.ts';
import type { MemoryStorage } from '../memory/index.ts';
import { MemoryManager } from '../memory/index.ts';
import type { AppliedPlugin, PluginLifecycle } from '../plugins/index.ts';
import type { Plugin } from '../plugins/index.ts';
import { SystemPromptBuilder } from '../prompt/index.ts';
import type { ModelInfo, ModelRouter } from '../provider/index.ts';
import { assemble, loadSources, type AssemblyInput, type ComponentSnapshot } from '../components/index.ts';
import type { LoadDiagnostic } from '../components/index.ts';
import type { ComponentInfo } from '../components/index.ts';
import { rebuildContext } from './rebuild-context.ts';
import type { SessionRuntime, SessionState } from './session-runtime.ts';
import type { SessionStorage } from './session-storage.ts';
import { Session } from './session.ts';
import { SessionWriter } from './session-writer.ts';

/**
 * Settings one session may run with instead of the agent's (a workbench profile's run parameters).
 * A key present with `undefined` clears the agent's value for the session (no temperature sent).
 */
export type SessionConfigOverrides = {
  [Key in 'temperature' | 'maxTokens' | 'reasoningEffort']?: AgentConfig[Key] | undefined;
} & Partial<
  Pick<
    AgentConfig,
    'maxToolCallsPerTurn' | 'providerFirstChunkTimeoutMs' | 'providerChunkTimeoutMs' | 'compactThreshold'
  >
>;

const CLEARABLE: ReadonlySet<string> = new Set(['temperature', 'maxTokens', 'reasoningEffort']);

function withOverrides(config: Readonly<AgentConfig>, overrides: SessionConfigOverrides): AgentConfig {
  const merged: Record<string, unknown> = { ...config };
  for (const [key, value] of Object.entries(overrides)) {
    if (value !== undefined) merged[key] = value;
    else if (CLEARABLE.has(key)) delete merged[key];
  }
  return merged as unknown as AgentConfig;
}

export interface NewSessionOptions {
  /** Defaults to `config.defaultModel`, then the first model of the first provider. */
  modelId?: string;
  /**
   * Replaces the base-instructions layer of the system prompt for this session. On resume it
   * replaces the one the session was created with.
   */
  systemPrompt?: string;
  /** Overrides of the agent's configuration for this session only. */
  config?: SessionConfigOverrides;
}

export interface AgentParts {
  assembly: AssemblyInput;
  snapshot: ComponentSnapshot;
  /** Programmatic plugins initialised and applied so far; grows when an override goes away. */
  applied: Map<Plugin, AppliedPlugin>;
  lifecycle: PluginLifecycle;
  router: ModelRouter;
  sessionStorage: SessionStorage | undefined;
  memoryStorage: MemoryStorage | undefined;
  namespace: string;
}

/**
 * A built agent: the registries, and at most one running session (spec §6.2). Build it with
 * `AgentBuilder`.
 *
 * @example
 * const session = await agent.newSession();
 * const turn = session.send('Summarise README.md');
 * for await (const event of turn) if (event.type === 'TextDelta') process.stdout.write(event.text);
 * await session.close();
 * await agent.shutdown();
 */
export class Agent {
  readonly #parts: AgentParts;
  #snapshot: ComponentSnapshot;
  #active: Session | undefined;
  #opening = false;
  #shutdown: Promise<void> | undefined;

  constructor(parts: AgentParts) {
    this.#parts = parts;
    this.#snapshot = parts.snapshot;
  }

  get cwd(): string {
    return this.#parts.assembly.cwd;
  }

  get home(): string {
    return this.#parts.assembly.home;
  }

  /** The effective configuration of the latest snapshot (defaults < setConfig < config.yaml). */
  get config(): Readonly<AgentConfig> {
    return this.#snapshot.config;
  }

  get models(): readonly ModelInfo[] {
    return this.#parts.router.models;
  }

  /** Every registered tool, skill and plugin with its layer and what overrides it (spec §9). */
  components(): readonly ComponentInfo[] {
    return this.#snapshot.listing;
  }

  /** Component folders that failed to load, with the reason. */
  get diagnostics(): readonly LoadDiagnostic[] {
    return this.#snapshot.diagnostics;
  }

  get activeSession(): Session | undefined {
    return this.#active;
  }

  /** Starts a session; SESSION_BUSY while another is open (spec §6.2). */
  async newSession(options: NewSessionOptions = {}): Promise<Session> {
    return this.#open(
      (runtime, sessionId) =>
        Promise.resolve(this.#state(runtime, sessionId, new ContextManager(), 0, false, 0, 0)),
      options,
      randomUUID(),
      // Stored only once SessionStart let the session start: an aborted start leaves no trace.
      async (state) => {
        const error = await state.writer.write({
          type: 'metadata',
          kind: 'session_created',
          modelId: state.runtime.model.model.id,
          cwd: state.runtime.cwd,
          ...(options.systemPrompt === undefined ? {} : { systemPrompt: options.systemPrompt }),
        });
        if (error !== undefined) throw error;
      },
    );
  }

  /** Reopens a stored session with its history; SESSION_NOT_FOUND when the storage has none. */
  async resumeSession(sessionId: string, options: NewSessionOptions = {}): Promise<Session> {
    const storage = this.#parts.sessionStorage;
    let records;
    try {
      records = storage === undefined ? undefined : await storage.load(sessionId);
    } catch (error) {
      throw AgentError.fromUnknown(error, 'STORAGE_ERROR', { source: 'storage', retryable: true });
    }
    if (records === undefined || records.length === 0) {
      throw new AgentError('SESSION_NOT_FOUND', `No stored session has id '${sessionId}'.`, {
        details: { sessionId },
      });
    }
    const rebuilt = rebuildContext(records, this.#snapshot.config);
    const created = records.find((record) => record.type === 'metadata' && record.kind === 'session_created');
    const systemPrompt =
      options.systemPrompt ??
      (created?.type === 'metadata' && created.kind === 'session_created' ? created.systemPrompt : undefined);
    const modelId = options.modelId ?? rebuilt.modelId;
    return this.#open(
      async (runtime) =>
        this.#state(
          runtime,
          sessionId,
          new ContextManager(rebuilt.messages),
          records.length,
          rebuilt.title !== undefined,
          rebuilt.turnCount,
          rebuilt.messageCount,
        ),
      {
        ...(modelId === undefined ? {} : { modelId }),
        ...(systemPrompt === undefined ? {} : { systemPrompt }),
        ...(options.config === undefined ? {} : { config: options.config }),
      },
      sessionId,
    );
  }

  /** Closes the open session, then shuts plugins down in reverse registration order (spec §6.3). */
  shutdown(): Promise<void> {
    this.#shutdown ??= (async () => {
      await this.#active?.close();
      await this.#parts.lifecycle.shutdown();
    })();
    return this.#shutdown;
  }

  async #open(
    create: (runtime: SessionRuntime, sessionId: string) => Promise<SessionState>,
    options: NewSessionOptions,
    sessionId: string = randomUUID(),
    begin?: (state: SessionState) => Promise<void>,
  ): Promise<Session> {
    if (this.#shutdown !== undefined) throw new AgentError('SESSION_BUSY', 'The agent has been shut down.');
    // Claimed before the first await, so concurrent calls cannot both get through.
    if (this.#opening || this.#active !== undefined) {
      throw new AgentError(
        'SESSION_BUSY',
        'A session is already open; close it before starting or resuming another.',
        {
          details: { activeSessionId: this.#active?.id },
        },
      );
    }
    this.#opening = true;
    try {
      if (this.#parts.assembly.sources.length > 0) {
        // New component files take effect in the next session (spec §2, §9).
        const loaded = await loadSources(this.#parts.assembly);
        let snapshot = assemble(this.#parts.assembly, loaded, this.#parts.applied);
        const { applied, lifecycle } = this.#parts;
        const late = snapshot.programmaticPlugins.filter(({ plugin }) => !applied.has(plugin));
        if (late.length > 0) {
          // The file plugin that overrode these at build is gone: they initialise now, once.
          for (const entry of await lifecycle.initialize(late, { rollbackOnFailure: false }))
            applied.set(entry.plugin, entry);
          snapshot = assemble(this.#parts.assembly, loaded, applied);
        }
        this.#snapshot = snapshot;
      }
      const runtime = this.#runtime(this.#snapshot, options);
      const state = await create(runtime, sessionId);
      // Abort on SessionStart refuses the session (decision 0005): nothing is stored, none is open.
      const started = await runtime.hooks.run('SessionStart', { sessionId: state.sessionId });
      if (started.aborted !== undefined) {
        throw new AgentError(
          'HOOK_ABORTED',
          `Plugin '${started.aborted.pluginId}' stopped the session from starting: ${started.aborted.reason}`,
          { details: { pluginId: started.aborted.pluginId, hook: 'SessionStart', sessionId } },
        );
      }
      await begin?.(state);
      state.memories = await runtime.memory.load(runtime.namespace);
      const session = new Session(state, () => {
        if (this.#active === session) this.#active = undefined;
      });
      this.#active = session;
      return session;
    } finally {
      this.#opening = false;
    }
  }

  #runtime(snapshot: ComponentSnapshot, options: NewSessionOptions): SessionRuntime {
    const { router, assembly } = this.#parts;
    const modelId = options.modelId ?? snapshot.config.defaultModel ?? router.models[0]?.id;
    if (modelId === undefined) throw new AgentError('MODEL_NOT_SUPPORTED', 'No provider declares any model.');
    const logger: Logger = assembly.logger;
    const config: AgentConfig =
      options.config === undefined ? snapshot.config : withOverrides(snapshot.config, options.config);
    const model = router.route(modelId);
    return {
      model,
      dispatcher: snapshot.dispatcher,
      skills: snapshot.skills,
      hooks: snapshot.hooks,
      compactor: new Compactor(router, snapshot.hooks, config, logger),
      memory: new MemoryManager(this.#parts.memoryStorage, router, config, logger),
      prompt: new SystemPromptBuilder({
        ...snapshot.prompt,
        ...(options.systemPrompt === undefined ? {} : { baseInstructions: options.systemPrompt }),
        // Tool schemas go once: in the request's `tools` for a model with native tool use.
        toolsInPrompt: !model.model.capabilities.toolUse,
        cwd: assembly.cwd,
      }),
      config,
      logger,
      cwd: assembly.cwd,
      home: assembly.home,
      allowedRoots: [assembly.cwd, assembly.home],
      namespace: this.#parts.namespace,
    };
  }

  #state(
    runtime: SessionRuntime,
    sessionId: string,
    context: ContextManager,
    nextRecord: number,
    titled: boolean,
    completedTurns: number,
    messageCount: number,
  ): SessionState {
    return {
      sessionId,
      runtime,
      context,
      writer: new SessionWriter(this.#parts.sessionStorage, sessionId, nextRecord),
      sequence: 0,
      memories: [],
      systemPrompt: undefined,
      unextracted: [],
      completedTurns,
      titled,
      messageCount,
    };
  }
}
