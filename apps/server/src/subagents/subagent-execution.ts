import {
  AgentError,
  type Agent,
  type AgentEvent,
  type ChatEvent,
  type ModelProvider,
  type Session,
} from '@youyou/agent';
import {
  DEFAULT_CONTEXT_ASSEMBLY_POLICY,
  type AgentProgressPayload,
  type AgentResultPayload,
  type ContextAssemblyPolicy,
  type HitlCardRequester,
  type SubagentBudget,
} from '@youyou/contracts';
import { assembledProvider, type RunAssembly } from '../context/index.ts';
import type { RunStatus } from '../database/index.ts';
import type { EventError, NewEvent, RunUsage } from '../events/index.ts';
import {
  rollUpUsage,
  runLifecycle,
  storeRunEnd,
  usageOf,
  type AgentEventRecorder,
  type Outcome,
  type RunContext,
  uploadFilesOf,
} from '../runs/index.ts';
import { RunRepository, type RunRow } from '../storage/index.ts';
import { createRunBinding, type ToolDecision } from '../tools/index.ts';

/** The conversation's turn a (nested) sub-agent run belongs to. */
async function topLevelRunOf(context: RunContext, run: RunRow): Promise<string> {
  const runs = new RunRepository(context.database.db);
  let current = run;
  while (current.parent_run_id !== null) {
    const parent = await runs.find(current.parent_run_id);
    if (parent === undefined) break;
    current = parent;
  }
  return current.id;
}

/** How much of a sub-agent's newest text its progress events carry. */
const LAST_TEXT_CHARS = 280;

export interface SubagentExecutionOptions {
  context: RunContext;
  run: RunRow;
  /** The message that starts it: its task and the output expected. */
  taskMessage: string;
  /** Its system prompt (instructions, and that it answers another agent). */
  systemPrompt: string;
  tools: ReadonlySet<string>;
  cwd: string;
  budget: SubagentBudget;
  /** Its slot priorities and shares: its profile's, else the default policy. */
  contextPolicy?: ContextAssemblyPolicy;
  /** Who it is (task, profile), named on every card it raises. */
  requester: HitlCardRequester;
  /** Bounds every card the sub-agent raises, in seconds (from the profiles); null for none. */
  hitlTimeoutSec?: number | null;
  progressIntervalMs: number;
  /** Builds its own agent (the core allows one running session per agent). */
  buildAgent: (options: {
    allowTool: (name: string) => boolean;
    wrapProvider: (provider: ModelProvider) => ModelProvider;
  }) => Promise<Agent>;
}

/** What a finished sub-agent hands back to its parent's `spawn_agent` call. */
export interface SubagentEnd {
  status: Exclude<RunStatus, 'pending' | 'running' | 'waiting_hitl'>;
  output: string;
  error: EventError | null;
  usage: RunUsage;
}

/**
 * One sub-agent run (spec §4.2 `kind: subagent`): its own agent and session with the parent's
 * tools or fewer, its events under its own run id through the same recorder as a turn, bounded
 * progress events, a budget of tool calls, tokens and wall time that ends it with a stable code,
 * and an `agent.result` with its answer, artifacts and rolled-up usage.
 *
 * @example
 * const execution = new SubagentExecution(options);
 * const end = await execution.run();
 */
export class SubagentExecution {
  readonly #options: SubagentExecutionOptions;
  readonly #controller = new AbortController();
  readonly #started = Date.now();
  readonly #decisions = new Map<string, ToolDecision>();
  #shutdown = false;
  #budgetFailure: EventError | undefined;
  #recorder: AgentEventRecorder | undefined;
  #progress: AgentProgressPayload;
  #lastProgressAt = 0;
  #progressTimer: NodeJS.Timeout | undefined;
  /** Tokens of finished model calls, and an estimate of the call streaming now. */
  #tokens = { input: 0, output: 0, streaming: 0 };
  /**
   * Its own context assembly (spec §4.10): every model request of the sub-agent is built by the
   * same assembler as a turn's, within its own model's window, and reported under its run id.
   */
  readonly #assembly: RunAssembly | undefined;

  constructor(options: SubagentExecutionOptions) {
    this.#options = options;
    this.#assembly = options.context.contextAssembly?.forRun({
      runId: options.run.id,
      conversationId: options.run.conversation_id,
      projectId: options.run.project_id,
      policy: options.contextPolicy ?? DEFAULT_CONTEXT_ASSEMBLY_POLICY,
    });
    this.#progress = {
      parent_run_id: options.run.parent_run_id ?? '',
      phase: 'pending',
      current_tool: null,
      last_text: '',
      tokens: { input: 0, output: 0 },
      tool_calls: 0,
    };
  }

  get runId(): string {
    return this.#options.run.id;
  }

  get conversationId(): string {
    return this.#options.run.conversation_id;
  }

  cancel(): void {
    this.#controller.abort(new AgentError('REQUEST_CANCELLED', 'The sub-agent was cancelled.'));
  }

  interrupt(): void {
    this.#shutdown = true;
    this.cancel();
  }

  /** Ends it over budget: a failure with the budget's code, not a cancel. */
  #overBudget(
    code: 'SUBAGENT_TOOL_CALLS_EXCEEDED' | 'SUBAGENT_TOKENS_EXCEEDED' | 'SUBAGENT_TIME_EXCEEDED',
    message: string,
    details: Record<string, unknown>,
  ): void {
    if (this.#budgetFailure !== undefined || this.#controller.signal.aborted) return;
    this.#budgetFailure = { code, message, retryable: false, source: 'server', details };
    this.#controller.abort(new AgentError('REQUEST_CANCELLED', message));
  }

  async run(): Promise<SubagentEnd> {
    const { context, run, budget } = this.#options;
    let unbind = (): void => {};
    const timer = setTimeout(
      () =>
        this.#overBudget(
          'SUBAGENT_TIME_EXCEEDED',
          `The sub-agent ran out of time (${budget.max_duration_ms} ms).`,
          {
            max_duration_ms: budget.max_duration_ms,
          },
        ),
      budget.max_duration_ms,
    );
    let agent: Agent | undefined;
    let session: Session | undefined;
    const { end } = await runLifecycle(
      {
        context,
        run,
        started: this.#started,
        signal: this.#controller.signal,
        cancel: () => this.cancel(),
        decisions: this.#decisions,
        // Its reports are stored before its end is, so "what the model saw" is there once it ended.
        assembly: this.#assembly,
      },
      {
        drive: async (recorder, writer) => {
          this.#recorder = recorder;
          this.#progress.phase = 'thinking';
          this.#controller.signal.throwIfAborted();
          agent = await this.#options.buildAgent({
            allowTool: (name) => this.#options.tools.has(name),
            wrapProvider: (provider) =>
              this.#metered(
                this.#assembly === undefined ? provider : assembledProvider(provider, this.#assembly),
              ),
          });
          await context.sessionStorage.append(run.id, [
            {
              sequence: 0,
              timestamp: Date.now(),
              type: 'metadata',
              kind: 'session_created',
              modelId: run.model_id ?? agent.models[0]?.id ?? '',
              cwd: this.#options.cwd,
              systemPrompt: this.#options.systemPrompt,
            },
          ]);
          session = await agent.resumeSession(run.id, run.model_id === null ? {} : { modelId: run.model_id });
          context.subagents?.registerRun(run.id, [...this.#options.tools]);
          // Its tool calls pass the confirmation policy too; its cards show in the conversation's turn.
          unbind = context.bindings.register(
            createRunBinding({
              run,
              messageRunId: await topLevelRunOf(context, run),
              cwd: this.#options.cwd,
              uploadFiles: () => uploadFilesOf(context, run.conversation_id, new Map()),
              signal: this.#controller.signal,
              interrupted: () => this.#shutdown,
              writer,
              eventLog: context.eventLog,
              decisions: this.#decisions,
              hitlTimeoutSec: this.#options.hitlTimeoutSec ?? null,
              subagent: this.#options.requester,
            }),
          );
          return recorder.drive(
            session.send(this.#options.taskMessage, { signal: this.#controller.signal }),
            (event) => this.#observe(event),
          );
        },
        release: async () => {
          unbind();
          clearTimeout(timer);
          clearTimeout(this.#progressTimer);
          context.subagents?.forgetRun(run.id);
          await session?.close().catch(() => {});
          await agent
            ?.shutdown()
            .catch((error: unknown) =>
              context.logger.warn({ err: error, runId: run.id }, 'a sub-agent failed to shut down'),
            );
        },
        overBudget: () => this.#budgetFailure,
        interrupted: () => this.#shutdown,
        finish: (recorder, _writer, outcome) => this.#finish(recorder, outcome),
      },
    );
    return end;
  }

  /** Counts tokens as they stream, so the budget holds inside a long reply too. */
  #metered(provider: ModelProvider): ModelProvider {
    const tokens = this.#tokens;
    const check = (): void => {
      const total = tokens.input + tokens.output + tokens.streaming;
      this.#progress.tokens = { input: tokens.input, output: tokens.output + tokens.streaming };
      if (total > this.#options.budget.max_tokens) {
        this.#overBudget(
          'SUBAGENT_TOKENS_EXCEEDED',
          `The sub-agent used ${total} tokens, over its budget of ${this.#options.budget.max_tokens}.`,
          { max_tokens: this.#options.budget.max_tokens, tokens: total },
        );
      }
    };
    return {
      id: provider.id,
      listModels: () => provider.listModels(),
      async *chat(request, options) {
        tokens.streaming = 0;
        for await (const event of provider.chat(request, options) as AsyncIterable<ChatEvent>) {
          if (event.type === 'text_delta' || event.type === 'reasoning_delta') {
            tokens.streaming += Math.ceil(event.text.length / 4);
            check();
          } else if (event.type === 'done') {
            tokens.input += event.usage?.inputTokens ?? 0;
            tokens.output += event.usage?.outputTokens ?? tokens.streaming;
            tokens.streaming = 0;
            check();
          }
          yield event;
        }
      },
    };
  }

  #observe(event: AgentEvent): void {
    const progress = this.#progress;
    const recorder = this.#recorder as AgentEventRecorder;
    progress.phase = recorder.phase;
    switch (event.type) {
      case 'TextDelta':
        progress.last_text = (progress.last_text + event.text).slice(-LAST_TEXT_CHARS);
        break;
      case 'ToolCallStart':
        progress.tool_calls++;
        progress.current_tool = event.toolName;
        if (progress.tool_calls > this.#options.budget.max_tool_calls) {
          this.#overBudget(
            'SUBAGENT_TOOL_CALLS_EXCEEDED',
            `The sub-agent made more than ${this.#options.budget.max_tool_calls} tool calls, its budget.`,
            { max_tool_calls: this.#options.budget.max_tool_calls },
          );
        }
        break;
      case 'ToolCallEnd':
        progress.current_tool = null;
        break;
      default:
        break;
    }
    this.#scheduleProgress();
  }

  /** At most one `agent.progress` per interval; the last state always goes out. */
  #scheduleProgress(): void {
    if (this.#progressTimer !== undefined) return;
    const wait = Math.max(0, this.#lastProgressAt + this.#options.progressIntervalMs - Date.now());
    this.#progressTimer = setTimeout(() => {
      this.#progressTimer = undefined;
      this.#lastProgressAt = Date.now();
      this.#emitProgress();
    }, wait);
  }

  #emitProgress(): void {
    const payload: AgentProgressPayload = { ...this.#progress, tokens: { ...this.#progress.tokens } };
    const runId = this.runId;
    (this.#recorder as AgentEventRecorder).append(
      [{ run_id: runId, type: 'agent.progress', payload }],
      async (transaction) => {
        await transaction
          .updateTable('subagent_tasks')
          .set({
            current_tool: payload.current_tool,
            last_text: payload.last_text,
            input_tokens: payload.tokens.input,
            output_tokens: payload.tokens.output,
            tool_calls: payload.tool_calls,
          })
          .where('run_id', '=', runId)
          .execute();
      },
    );
  }

  async #finish(recorder: AgentEventRecorder, outcome: Outcome): Promise<SubagentEnd> {
    const { context, run } = this.#options;
    const summary = 'summary' in outcome ? outcome.summary : undefined;
    const own = usageOf(summary, this.#started);
    if (summary === undefined) {
      own.input_tokens = this.#tokens.input;
      own.output_tokens = this.#tokens.output + this.#tokens.streaming;
      own.tool_calls = this.#progress.tool_calls;
    }
    const usage = await rollUpUsage(context.database.db, run.id, own).catch(() => own);
    const output = summary?.output ?? this.#progress.last_text;
    const status: SubagentEnd['status'] = outcome.status;
    const error: EventError | null =
      outcome.status === 'failed'
        ? outcome.error
        : outcome.status === 'cancelled'
          ? {
              code: 'REQUEST_CANCELLED',
              message: 'The sub-agent was cancelled.',
              retryable: false,
              source: 'server',
            }
          : outcome.status === 'interrupted'
            ? {
                code: 'SERVICE_UNAVAILABLE',
                message: 'The server stopped while the sub-agent ran.',
                retryable: true,
                source: 'server',
              }
            : null;
    const artifacts = await context.artifacts.writtenBy(run.id).catch(() => []);
    const result: AgentResultPayload = {
      parent_run_id: run.parent_run_id ?? '',
      status,
      summary: output,
      error:
        error === null
          ? null
          : {
              code: error.code,
              message: error.message,
              retryable: error.retryable,
              ...(error.details === undefined ? {} : { details: { ...error.details } }),
            },
      artifacts: artifacts.map((artifact) => artifact.id),
      usage,
    };
    const events: NewEvent[] = [];
    switch (outcome.status) {
      case 'completed':
        events.push(recorder.event({ type: 'run.completed', payload: { message_id: run.id, usage } }));
        break;
      case 'failed':
        events.push(
          recorder.event({
            type: 'run.failed',
            payload: { message_id: run.id, error: outcome.error, usage },
          }),
        );
        break;
      case 'cancelled':
        events.push(recorder.event({ type: 'run.cancelled', payload: { message_id: run.id, usage } }));
        break;
      case 'interrupted':
        events.push(
          recorder.event({ type: 'run.interrupted', payload: { message_id: run.id, reason: 'shutdown' } }),
        );
        break;
    }
    events.push(recorder.event({ type: 'agent.result', payload: result }));
    const ended = Date.now();
    try {
      await context.eventLog.writer(run.conversation_id).append(events, async (transaction) => {
        await storeRunEnd(transaction, run, { status, own, rolled: usage, error, ended });
        await transaction
          .updateTable('subagent_tasks')
          .set({
            result: output,
            current_tool: null,
            last_text: this.#progress.last_text,
            input_tokens: usage.input_tokens,
            output_tokens: usage.output_tokens,
            tool_calls: usage.tool_calls,
          })
          .where('run_id', '=', run.id)
          .execute();
      });
      context.logger.info(
        { runId: run.id, parentRunId: run.parent_run_id, status, usage },
        'sub-agent finished',
      );
    } catch (failure) {
      context.logger.error(
        { err: failure, runId: run.id, status },
        'the end of a sub-agent could not be stored',
      );
    }
    return { status, output, error, usage };
  }
}
