import { randomUUID } from 'node:crypto';
import type { Agent, ModelProvider, ToolHandler, ToolOutput } from '@youyou/agent';
import {
  MAX_SUBAGENT_DEPTH,
  type AgentNode,
  type AgentSpawnPayload,
  type AgentTree,
  type ContextAssemblyPolicy,
  type SubagentBudget,
} from '@youyou/contracts';
import { toolError } from '../artifacts/index.ts';
import { ApiError } from '../errors/index.ts';
import type { NewEvent } from '../events/index.ts';
import type { RunContext, RunManager, RunToolRegistry } from '../runs/index.ts';
import { describeRun, RunRepository, type RunRow } from '../storage/index.ts';
import { SubagentExecution, type SubagentEnd } from './subagent-execution.ts';
import type { SubagentOptions } from './subagent-options.ts';

/** What an agent profile (settings) gives a sub-agent. */
export interface SubagentProfile {
  /** The profile's name, shown on the sub-agent's cards. */
  name?: string;
  instructions?: string;
  model_id?: string;
  /** The profile's tool lists: only parent tools this passes are the default set. */
  allowTool?: (name: string) => boolean;
  /** The profile's context-assembly policy (slot priorities and shares). */
  context?: ContextAssemblyPolicy;
  /** The profile's bound on a HITL card's wait, in seconds. */
  hitlTimeoutSec?: number | null;
}

/** Looks a profile up by id; undefined when there is none. */
export type ProfileResolver = (profileId: string) => Promise<SubagentProfile | undefined>;

const DEFAULT_INSTRUCTIONS =
  'You are a sub-agent: another agent handed you one task. Work on it with the tools you have, without asking the user anything, and end with your final answer — it is returned to that agent as the result. Write long results into an artifact (create_artifact) and say which.';

/** The shorter of two optional limits; null when neither is set. */
function shorterLimit(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  return b === null ? a : Math.min(a, b);
}

/** Waits for one of `limit` places; places are taken in order. */
class Slots {
  readonly #limit: number;
  #taken = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(limit: number) {
    this.#limit = Math.max(1, limit);
  }

  get idle(): boolean {
    return this.#taken === 0 && this.#waiting.length === 0;
  }

  async take(): Promise<() => void> {
    if (this.#taken >= this.#limit) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#taken++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next === undefined) this.#taken--;
      else next();
    };
  }
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function ceiling(requested: unknown, limit: number): number {
  return typeof requested === 'number' && Number.isFinite(requested) && requested >= 1
    ? Math.min(Math.floor(requested), limit)
    : limit;
}

/**
 * Sub-agents (spec §4.2, §4.3 runtime "Agent-Squad"): the `spawn_agent` tool, each call a child
 * run with its own agent, at most `maxConcurrent` of one parent at a time, no deeper than
 * `MAX_SUBAGENT_DEPTH`; cancels cascade through the run manager; the tracker's tree.
 *
 * @example
 * const subagents = new SubagentManager({ context, runs, options, buildAgent });
 * builder.addTool(subagents.spawnTool());
 */
export class SubagentManager implements RunToolRegistry {
  readonly #context: RunContext;
  readonly #runs: RunManager;
  readonly #options: SubagentOptions;
  readonly #buildAgent: SubagentManagerOptions['buildAgent'];
  readonly #resolveProfile: ProfileResolver | undefined;
  readonly #runTools = new Map<string, readonly string[]>();
  readonly #slots = new Map<string, Slots>();

  constructor(options: SubagentManagerOptions) {
    this.#context = options.context;
    this.#runs = options.runs;
    this.#options = options.options;
    this.#buildAgent = options.buildAgent;
    this.#resolveProfile = options.resolveProfile;
  }

  registerRun(runId: string, tools: readonly string[]): void {
    this.#runTools.set(runId, tools);
  }

  forgetRun(runId: string): void {
    this.#runTools.delete(runId);
  }

  /** The `spawn_agent` tool every agent gets (sub-agents at the last depth do not). */
  spawnTool(): ToolHandler {
    return {
      name: 'spawn_agent',
      description:
        'Hand a self-contained task to a sub-agent with its own context and your tools (or a subset); it returns its answer and the artifacts it wrote. Several calls in one response run at once. It does not see this conversation: put all it needs in `task` and `instructions`.',
      parameters: {
        type: 'object',
        properties: {
          task: { type: 'string', minLength: 1, description: 'What to do, self-contained.' },
          instructions: { type: 'string', description: 'How to work (its system prompt).' },
          tools: {
            type: 'array',
            items: { type: 'string' },
            description: 'A subset of your tools (default: all).',
          },
          profile_id: { type: 'string', description: 'An agent profile to start from.' },
          expected_output: { type: 'string', description: 'What the answer should hold.' },
          budget: {
            type: 'object',
            properties: {
              max_tool_calls: { type: 'integer', minimum: 1 },
              max_tokens: { type: 'integer', minimum: 1 },
              max_duration_ms: { type: 'integer', minimum: 1 },
            },
            additionalProperties: false,
          },
        },
        required: ['task'],
        additionalProperties: false,
      },
      mutating: false,
      // The sub-agent's own wall-time budget ends it first.
      timeoutMs: this.#options.budget.max_duration_ms + 30_000,
      execute: async (input, context) => {
        try {
          const end = await this.spawn({
            parentRunId: context.sessionId,
            callId: input.callId,
            arguments: input.arguments,
            // A cancelled parent turn aborts `cancelSignal`, not the stop signal (spec §6.2): a
            // sub-agent is a turn of its own, and cancelling it keeps its partial work.
            signal: AbortSignal.any([context.signal, context.cancelSignal]),
          });
          return this.#resultFor(end.runId, end);
        } catch (error) {
          return toolError(error);
        }
      },
    };
  }

  /** Starts a sub-agent below `parentRunId` and waits for it to end. */
  async spawn(request: {
    parentRunId: string;
    callId: string;
    arguments: Readonly<Record<string, unknown>>;
    signal?: AbortSignal;
  }): Promise<SubagentEnd & { runId: string; artifacts: { id: string; title: string }[] }> {
    const { database, eventLog, instanceId } = this.#context;
    if (this.#runs.closing)
      throw new ApiError('SERVICE_UNAVAILABLE', 'The server is stopping.', { retryable: true });
    // Both at once: the spawn is on the path to the child's first event.
    const [parent, parentTask] = await Promise.all([
      new RunRepository(database.db).get(request.parentRunId),
      database.db
        .selectFrom('subagent_tasks')
        .selectAll()
        .where('run_id', '=', request.parentRunId)
        .executeTakeFirst(),
    ]);
    const depth = (parentTask?.depth ?? 0) + 1;
    if (depth > MAX_SUBAGENT_DEPTH) {
      throw new ApiError(
        'SUBAGENT_DEPTH_EXCEEDED',
        `Sub-agents nest at most ${MAX_SUBAGENT_DEPTH} deep; this one would be at depth ${depth}. Do the task yourself.`,
        { details: { depth, max_depth: MAX_SUBAGENT_DEPTH } },
      );
    }
    const task = stringOf(request.arguments['task']);
    if (task === undefined) throw new ApiError('INVALID_INPUT', 'A sub-agent needs a `task`.');
    const profileId = stringOf(request.arguments['profile_id']);
    let profile: SubagentProfile | undefined;
    if (profileId !== undefined) {
      profile = await this.#resolveProfile?.(profileId);
      if (profile === undefined) {
        throw new ApiError(
          'SUBAGENT_PROFILE_NOT_FOUND',
          `No agent profile has the id ${JSON.stringify(profileId)}.`,
          {
            details: { profile_id: profileId },
          },
        );
      }
    }
    const parentTools = this.#runTools.get(parent.id) ?? [];
    const requested = Array.isArray(request.arguments['tools'])
      ? (request.arguments['tools'] as unknown[]).filter((name): name is string => typeof name === 'string')
      : parentTools.filter((name) => profile?.allowTool?.(name) ?? true);
    const notAllowed = requested.filter((name) => !parentTools.includes(name));
    if (notAllowed.length > 0) {
      throw new ApiError(
        'SUBAGENT_TOOL_NOT_ALLOWED',
        `A sub-agent gets only tools its parent has; not available here: ${notAllowed.join(', ')}. Available: ${parentTools.join(', ') || 'none'}.`,
        { details: { not_allowed: notAllowed, available: [...parentTools] } },
      );
    }
    const tools = new Set(requested);
    if (depth >= MAX_SUBAGENT_DEPTH) tools.delete('spawn_agent');
    const limits = this.#options.budget;
    const asked = (request.arguments['budget'] ?? {}) as Record<string, unknown>;
    const budget: SubagentBudget = {
      max_tool_calls: ceiling(asked['max_tool_calls'], limits.max_tool_calls),
      max_tokens: ceiling(asked['max_tokens'], limits.max_tokens),
      max_duration_ms: ceiling(asked['max_duration_ms'], limits.max_duration_ms),
    };
    const instructions = stringOf(request.arguments['instructions']) ?? null;
    const expectedOutput = stringOf(request.arguments['expected_output']) ?? null;
    const rootRunId = parentTask?.root_run_id ?? parent.id;
    const now = Date.now();
    const child: RunRow = {
      id: randomUUID(),
      owner: null,
      conversation_id: parent.conversation_id,
      project_id: parent.project_id,
      parent_run_id: parent.id,
      previous_run_id: null,
      user_message_id: randomUUID(),
      kind: 'subagent',
      profile_id: profileId ?? null,
      model_id: profile?.model_id ?? parent.model_id,
      status: 'pending',
      phase: 'pending',
      error: null,
      usage: null,
      instance_id: instanceId,
      cancel_requested: 0,
      created_at: now,
      started_at: null,
      ended_at: null,
    };
    const taskMessage = expectedOutput === null ? task : `${task}\n\nExpected output: ${expectedOutput}`;
    const spawn: AgentSpawnPayload = {
      parent_run_id: parent.id,
      root_run_id: rootRunId,
      call_id: request.callId,
      task,
      instructions,
      expected_output: expectedOutput,
      tools: [...tools],
      profile_id: profileId ?? null,
      depth,
      budget,
    };
    const events: NewEvent[] = [
      {
        run_id: child.id,
        type: 'run.created',
        payload: {
          run: describeRun(child),
          input: { text: taskMessage, attachments: [], skills: [] },
          user_message_id: child.user_message_id ?? '',
          assistant_message_id: child.id,
        },
      },
      { run_id: child.id, type: 'agent.spawn', payload: spawn },
    ];
    await eventLog.writer(child.conversation_id).append(events, async (transaction) => {
      await transaction.insertInto('runs').values(child).execute();
      await transaction
        .insertInto('subagent_tasks')
        .values({
          run_id: child.id,
          conversation_id: child.conversation_id,
          parent_run_id: parent.id,
          root_run_id: rootRunId,
          call_id: request.callId,
          task,
          instructions,
          expected_output: expectedOutput,
          tools: JSON.stringify([...tools]),
          profile_id: profileId ?? null,
          depth,
          budget: JSON.stringify(budget),
          current_tool: null,
          last_text: '',
          input_tokens: 0,
          output_tokens: 0,
          tool_calls: 0,
          result: null,
          created_at: now,
        })
        .execute();
    });
    const cwd = this.#context.scratchDirectory;
    const parentCwd = await this.#cwdOf(parent);
    const execution = new SubagentExecution({
      context: this.#context,
      run: child,
      taskMessage,
      requester: {
        run_id: child.id,
        task,
        profile_id: profileId ?? null,
        profile_name: profile?.name ?? null,
      },
      systemPrompt: [profile?.instructions, instructions ?? DEFAULT_INSTRUCTIONS]
        .filter((part): part is string => part !== undefined)
        .join('\n\n'),
      tools,
      cwd: parentCwd ?? cwd,
      budget,
      ...(profile?.context === undefined ? {} : { contextPolicy: profile.context }),
      // A sub-agent's cards are bounded by its parent's profile and its own, whichever is shorter.
      hitlTimeoutSec: shorterLimit(
        this.#context.bindings.get(parent.id)?.hitlTimeoutSec ?? null,
        profile?.hitlTimeoutSec ?? null,
      ),
      progressIntervalMs: this.#options.progressIntervalMs,
      buildAgent: (options) =>
        this.#buildAgent({ cwd: parentCwd ?? cwd, projectId: child.project_id, ...options }),
    });
    const slots = this.#slotsOf(parent.id);
    const done = slots.take().then(async (release) => {
      try {
        return await execution.run();
      } finally {
        release();
        if (slots.idle) this.#slots.delete(parent.id);
      }
    });
    if (!this.#runs.track(child.id, execution, done)) execution.interrupt();
    const onAbort = (): void => execution.cancel();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const end = await done;
      const artifacts = (await this.#context.artifacts.writtenBy(child.id)).map((artifact) => ({
        id: artifact.id,
        title: artifact.title,
      }));
      return { ...end, runId: child.id, artifacts };
    } finally {
      request.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** The tracker's task tree of a conversation: every sub-agent under the top-level run that spawned it. */
  async tree(conversationId: string): Promise<AgentTree> {
    const { db } = this.#context.database;
    const conversation = await db
      .selectFrom('conversations')
      .select('last_seq')
      .where('id', '=', conversationId)
      .executeTakeFirst();
    const rows = await db
      .selectFrom('subagent_tasks')
      .innerJoin('runs', 'runs.id', 'subagent_tasks.run_id')
      .selectAll('subagent_tasks')
      .select([
        'runs.status',
        'runs.phase',
        'runs.error',
        'runs.usage',
        'runs.started_at',
        'runs.ended_at',
        'runs.created_at as run_created_at',
      ])
      .where('subagent_tasks.conversation_id', '=', conversationId)
      .orderBy('subagent_tasks.created_at')
      .execute();
    const artifacts =
      rows.length === 0
        ? []
        : await db
            .selectFrom('artifacts')
            .select(['id', 'name', 'kind', 'run_id'])
            .where(
              'run_id',
              'in',
              rows.map((row) => row.run_id),
            )
            .orderBy('created_at')
            .execute();
    const nodes = new Map<string, AgentNode>();
    for (const row of rows) {
      const usage =
        row.usage === null
          ? undefined
          : (JSON.parse(row.usage) as { input_tokens: number; output_tokens: number; tool_calls: number });
      const ended = row.ended_at === null ? null : Number(row.ended_at);
      const started = row.started_at === null ? null : Number(row.started_at);
      nodes.set(row.run_id, {
        run_id: row.run_id,
        parent_run_id: row.parent_run_id,
        root_run_id: row.root_run_id,
        conversation_id: row.conversation_id,
        call_id: row.call_id,
        task: row.task,
        instructions: row.instructions,
        expected_output: row.expected_output,
        tools: JSON.parse(row.tools) as string[],
        profile_id: row.profile_id,
        depth: row.depth,
        status: row.status,
        phase: row.phase,
        current_tool: row.current_tool,
        last_text: row.last_text,
        tokens: {
          input: usage?.input_tokens ?? Number(row.input_tokens),
          output: usage?.output_tokens ?? Number(row.output_tokens),
        },
        tool_calls: usage?.tool_calls ?? row.tool_calls,
        budget: JSON.parse(row.budget) as SubagentBudget,
        created_at: new Date(Number(row.run_created_at)).toISOString(),
        started_at: started === null ? null : new Date(started).toISOString(),
        ended_at: ended === null ? null : new Date(ended).toISOString(),
        duration_ms: started === null ? null : (ended ?? Date.now()) - started,
        result: row.result,
        error: row.error === null ? null : (JSON.parse(row.error) as AgentNode['error']),
        artifacts: artifacts
          .filter((artifact) => artifact.run_id === row.run_id)
          .map((artifact) => ({ id: artifact.id, title: artifact.name, kind: artifact.kind })),
        children: [],
      });
    }
    const roots = new Map<string, AgentNode[]>();
    for (const node of nodes.values()) {
      const parent = nodes.get(node.parent_run_id);
      if (parent !== undefined) parent.children.push(node);
      else roots.set(node.root_run_id, [...(roots.get(node.root_run_id) ?? []), node]);
    }
    const rootRuns =
      roots.size === 0
        ? []
        : await db
            .selectFrom('runs')
            .select(['id', 'status'])
            .where('id', 'in', [...roots.keys()])
            .orderBy('created_at')
            .execute();
    return {
      conversation_id: conversationId,
      last_seq: Number(conversation?.last_seq ?? 0),
      roots: rootRuns.map((run) => ({
        run_id: run.id,
        status: run.status,
        children: roots.get(run.id) ?? [],
      })),
    };
  }

  #slotsOf(parentRunId: string): Slots {
    let slots = this.#slots.get(parentRunId);
    if (slots === undefined) {
      slots = new Slots(this.#options.maxConcurrent);
      this.#slots.set(parentRunId, slots);
    }
    return slots;
  }

  async #cwdOf(run: RunRow): Promise<string | undefined> {
    if (run.project_id === null) return undefined;
    const project = await this.#context.database.db
      .selectFrom('projects')
      .select('directory')
      .where('id', '=', run.project_id)
      .executeTakeFirst();
    return project?.directory ?? undefined;
  }

  #resultFor(runId: string, end: SubagentEnd & { artifacts: { id: string; title: string }[] }): ToolOutput {
    const artifacts =
      end.artifacts.length === 0
        ? ''
        : `\n\nArtifacts it wrote:\n${end.artifacts.map((artifact) => `- "${artifact.title}" (id ${artifact.id}) — read_artifact to open`).join('\n')}`;
    if (end.status === 'completed') {
      return { content: `${end.output}${artifacts}`, metadata: { subagent_run_id: runId } };
    }
    const error = end.error ?? { code: 'INTERNAL_ERROR', message: 'The sub-agent ended without a result.' };
    const partial = end.output === '' ? '' : `\n\nWhat it had written so far:\n${end.output}`;
    return {
      content: `Error [${error.code}]: The sub-agent (run ${runId}) ${end.status === 'failed' ? 'failed' : `was ${end.status}`}: ${error.message}${partial}${artifacts}`,
      isError: true,
      metadata: { subagent_run_id: runId },
    };
  }
}

export interface SubagentManagerOptions {
  context: RunContext;
  runs: RunManager;
  options: SubagentOptions;
  buildAgent: (options: {
    cwd: string;
    projectId: string | null;
    allowTool: (name: string) => boolean;
    wrapProvider: (provider: ModelProvider) => ModelProvider;
  }) => Promise<Agent>;
  resolveProfile?: ProfileResolver;
}
