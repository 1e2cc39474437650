import { AgentError, stopKindOf, stopReason, type Session } from '@youyou/agent';
import { contextPolicyOf } from '@youyou/contracts';
import type { RunStatus } from '../database/index.ts';
import type { ConversationWriter, MessageInput, NewEvent } from '../events/index.ts';
import type { AgentLease, RunShaping } from '../agents/index.ts';
import type { RunAssembly } from '../context/index.ts';
import { artifactReferenceBlocks } from '../artifacts/index.ts';
import { referenceBlocks } from '../knowledge/index.ts';
import { UploadRepository, type RunRow } from '../storage/index.ts';
import { createRunBinding, type RunBinding, type ToolDecision } from '../tools/index.ts';
import {
  rollUpUsage,
  storeRunEnd,
  usageOf,
  type AgentEventRecorder,
  type Outcome,
} from './agent-event-recorder.ts';
import { agentInputOf } from './agent-input.ts';
import { titleFromText } from '../models/index.ts';
import type { RunContext } from './run-context.ts';
import { RunBudgetGuard } from './run-budget.ts';
import { runLifecycle } from './run-lifecycle.ts';
import { sessionConfigOf, type RunPlan } from './run-plan.ts';
import { messageIntentRequest } from './message-intent.ts';
import { workflowCommandReply, type WorkflowCommandCall } from './workflow-command.ts';

/**
 * What an installed intent makes of a `/` message no skill took (`/weather report for Oslo`):
 * the message stays as typed in the conversation; the model gets the intent's request.
 */
function slashRequest(
  input: { text: string; skills: readonly unknown[] },
  slashIntent: ((text: string) => string | undefined) | undefined,
): string | undefined {
  if (slashIntent === undefined || input.skills.length > 0) return undefined;
  const typed = /^\/(\S[\s\S]*)$/.exec(input.text.trim())?.[1];
  return typed === undefined ? undefined : slashIntent(typed);
}

/** The enabled tools of a leased agent. */
function runToolsOf(lease: AgentLease): string[] {
  return lease.agent
    .components()
    .filter((component) => component.kind === 'tool' && component.enabled)
    .map((component) => component.name);
}

export interface RunExecutionOptions {
  context: RunContext;
  run: RunRow;
  input: MessageInput;
  /** Upload id → object path, for the attachments of `input`. */
  storagePaths: ReadonlyMap<string, string>;
  cwd: string;
  /** Set when the conversation has no title yet and this run's input had no text to take one from. */
  titleFromAnswer: boolean;
  /** The profile, parameters and budget this run was created with (fixed for its life). */
  plan: RunPlan;
}

/** Real paths of the files of a conversation's uploads and of this run's attachments. */
export async function uploadFilesOf(
  context: Pick<RunContext, 'database' | 'objects'>,
  conversationId: string,
  storagePaths: ReadonlyMap<string, string>,
): Promise<string[]> {
  const uploads = await new UploadRepository(context.database.db).ofConversation(conversationId);
  const paths = new Set([...storagePaths.values(), ...uploads.map((upload) => upload.storage_path)]);
  return [...paths].map((path) => context.objects.resolve(path));
}

/**
 * One top-level run: borrows the conversation's agent, resumes the run's session (whose history is
 * its branch), sends the message, and turns every agent event into workbench events, in order, as
 * they come (spec §4.2). The turn is drained here, so the run goes on with or without a client.
 *
 * @example
 * const execution = new RunExecution(options);
 * void execution.run();
 * execution.cancel();
 */
export class RunExecution {
  readonly #options: RunExecutionOptions;
  readonly #controller = new AbortController();
  readonly #started = Date.now();
  readonly #decisions = new Map<string, ToolDecision>();
  #cancelReason: 'user' | 'superseded' = 'user';
  readonly #budget: RunBudgetGuard;
  readonly #assembly: RunAssembly | undefined;
  /** Set when the message is a workflow command: the run calls the workflow, not the model. */
  readonly #workflow: WorkflowCommandCall | undefined;
  #binding: RunBinding | undefined;

  constructor(options: RunExecutionOptions) {
    this.#options = options;
    this.#workflow =
      options.input.skills.length > 0 ? undefined : options.context.workflowCommand?.(options.input.text);
    this.#budget = new RunBudgetGuard(options.plan, () =>
      this.#controller.abort(new AgentError('REQUEST_CANCELLED', 'The run passed its budget.')),
    );
    this.#assembly = options.context.contextAssembly?.forRun({
      runId: options.run.id,
      conversationId: options.run.conversation_id,
      projectId: options.run.project_id,
      // The slot priorities and shares of the conversation or its profile (spec §4.10), else the defaults.
      policy: contextPolicyOf(options.plan.contextAssembly),
    });
  }

  /** The run's shaping: the budget guard's rules, and the context assembler (spec §4.10). */
  #shaping(): RunShaping {
    const assembly = this.#assembly;
    const { shaping } = this.#budget;
    const workflow = this.#workflow;
    const { promptSections: sections, toolAvailable } = this.#options.context;
    return {
      ...shaping,
      ...(toolAvailable === undefined
        ? {}
        : { toolVisible: (name: string) => shaping.toolVisible(name) && toolAvailable(name) }),
      // What installed extensions offer, so that the model can use it from the user's own words.
      ...(sections === undefined ? {} : { promptSections: sections }),
      ...(assembly === undefined ? {} : { assemble: (...args) => assembly.assemble(...args) }),
      ...(workflow === undefined
        ? {}
        : { respond: workflowCommandReply(workflow, `workflow-${this.#options.run.id}`) }),
    };
  }

  get runId(): string {
    return this.#options.run.id;
  }

  get conversationId(): string {
    return this.#options.run.conversation_id;
  }

  /** Stops the turn; it ends `cancelled` (partial output kept), `superseded` when a new request replaced it. */
  cancel(reason: 'user' | 'superseded' = 'user'): void {
    if (!this.#controller.signal.aborted) this.#cancelReason = reason;
    this.#controller.abort(stopReason('cancel', 'The run was cancelled.'));
  }

  /** Stops the turn because the server is stopping; it ends `interrupted` (the kind is in the abort reason). */
  interrupt(): void {
    this.#controller.abort(stopReason('interrupt', 'The server is stopping.'));
  }

  async run(): Promise<RunStatus> {
    const { context, run } = this.#options;
    let unbind = (): void => {};
    let lease: AgentLease | undefined;
    let session: Session | undefined;
    const { outcome } = await runLifecycle(
      {
        context,
        run,
        started: this.#started,
        signal: this.#controller.signal,
        cancel: () => this.cancel(),
        decisions: this.#decisions,
        assembly: this.#assembly,
      },
      {
        // The agent is leased (built, for a new conversation) while the run's start commits:
        // neither waits for the other, and the session's records queue behind it in the writer.
        prepare: async () => {
          this.#budget.start();
          lease = await context.pool.acquire(run.conversation_id, this.#options.cwd, run.project_id, {
            retryBudget: this.#options.plan.parameters.retry_budget ?? undefined,
            shaping: this.#shaping(),
          });
        },
        drive: async (recorder, writer) => {
          if (lease === undefined) throw new Error('the run has no agent lease');
          this.#binding = createRunBinding({
            run,
            messageRunId: run.id,
            cwd: this.#options.cwd,
            uploadFiles: () => uploadFilesOf(context, run.conversation_id, this.#options.storagePaths),
            signal: this.#controller.signal,
            interrupted: () =>
              this.#controller.signal.aborted && stopKindOf(this.#controller.signal.reason) === 'interrupt',
            writer,
            eventLog: context.eventLog,
            decisions: this.#decisions,
            hitlTimeoutSec: this.#options.plan.profile.hitl.timeoutSec,
          });
          unbind = context.bindings.register(this.#binding);
          context.logger.info(
            { runId: run.id, conversationId: run.conversation_id, status: 'running' },
            'run started',
          );
          session = await this.#openSession(lease);
          context.subagents?.registerRun(run.id, runToolsOf(lease));
          return this.#drive(recorder, session);
        },
        release: async () => {
          this.#budget.stop();
          await session
            ?.close()
            .catch((error: unknown) =>
              context.logger.warn({ err: error, runId: run.id }, 'session close failed'),
            );
          lease?.release();
          context.subagents?.forgetRun(run.id);
          unbind();
        },
        // Over budget, the guard aborted the turn: the run fails with the budget's code.
        overBudget: (ended) =>
          ended.status === 'cancelled' || ended.status === 'failed' ? this.#budget.exceeded : undefined,
        interrupted: () => stopKindOf(this.#controller.signal.reason) === 'interrupt',
        finish: (recorder, writer, ended) => this.#finish(writer, recorder, ended),
      },
    );
    if (outcome.status === 'completed' && context.memory !== undefined) {
      // After the run, never inside it: a proposal is only a card; the user decides (spec §4.13).
      void context.memory.proposeAfterRun({
        runId: run.id,
        conversationId: run.conversation_id,
        projectId: run.project_id,
        userText: this.#options.input.text,
        answer: outcome.summary?.output ?? '',
      });
    }
    return outcome.status === 'completed' ? 'completed' : outcome.status;
  }

  async #openSession(lease: AgentLease): Promise<Session> {
    const { context, run, cwd } = { ...this.#options, cwd: this.#options.cwd };
    const modelId = run.model_id ?? undefined;
    if (!(await context.sessionStorage.hasHistory(run.id))) {
      // The first exchange of a branch: the record newSession() would have written.
      await context.sessionStorage.append(run.id, [
        {
          sequence: 0,
          timestamp: Date.now(),
          type: 'metadata',
          kind: 'session_created',
          modelId: modelId ?? lease.agent.models[0]?.id ?? '',
          cwd,
        },
      ]);
    }
    const { plan } = this.#options;
    return lease.agent.resumeSession(run.id, {
      ...(modelId === undefined ? {} : { modelId }),
      ...(plan.systemPrompt === undefined ? {} : { systemPrompt: plan.systemPrompt }),
      config: sessionConfigOf(plan),
    });
  }

  async #drive(recorder: AgentEventRecorder, session: Session): Promise<Outcome> {
    const { context, input, storagePaths, cwd } = this.#options;
    const agentInput = await agentInputOf(input, {
      objects: context.objects,
      storagePaths,
      allowedRoots: [cwd, context.home],
      ...(context.documents === undefined ? {} : { documents: context.documents }),
    });
    // A workflow command is not a skill's `/name`: the history says which command ran.
    const intended =
      this.#workflow === undefined
        ? (slashRequest(input, context.slashIntent) ?? (await this.#intentRequest()))
        : `(The command ${input.text.trim()} starts its workflow, ${this.#workflow.toolName}.)`;
    if (intended !== undefined) {
      const typed = agentInput.findIndex((block) => block.type === 'text' && block.text === input.text);
      if (typed !== -1) agentInput[typed] = { type: 'text', text: intended };
    }
    agentInput.push(...(await artifactReferenceBlocks(context.artifacts, this.conversationId, input.text)));
    if (input.references !== undefined)
      agentInput.push(
        ...(await referenceBlocks(input.references, {
          knowledge: context.knowledge,
          artifacts: context.artifacts,
          directory: cwd === context.scratchDirectory ? null : cwd,
          projectId: this.#options.run.project_id,
          text: input.text,
        })),
      );
    return recorder.drive(session.send(agentInput, { signal: this.#controller.signal }));
  }

  /** An ordinary message (no `/`, no skill) through the intent gate: the request of the intent it asks for. */
  async #intentRequest(): Promise<string | undefined> {
    const { context, input, run } = this.#options;
    const gate = context.messageIntent;
    const binding = this.#binding;
    if (gate === undefined || binding === undefined || input.skills.length > 0) return undefined;
    if (input.text.trim() === '' || input.text.trimStart().startsWith('/')) return undefined;
    return messageIntentRequest({
      gate,
      hitl: context.hitl,
      binding,
      text: input.text,
      signal: this.#controller.signal,
      onModelFailure: (error) =>
        context.logger.warn(
          { err: error, runId: run.id },
          'the intent gate could not ask the lightweight model',
        ),
    });
  }

  async #stillUntitled(): Promise<boolean> {
    if (!this.#options.titleFromAnswer) return false;
    const row = await this.#options.context.database.db
      .selectFrom('conversations')
      .select('title_source')
      .where('id', '=', this.conversationId)
      .executeTakeFirst()
      .catch(() => undefined);
    return row?.title_source === 'none';
  }

  /** The run's last event, with its final state, children and usage, in one transaction. */
  async #finish(writer: ConversationWriter, recorder: AgentEventRecorder, outcome: Outcome): Promise<void> {
    const { context, run } = this.#options;
    const runId = run.id;
    const summary = 'summary' in outcome ? outcome.summary : undefined;
    const own = usageOf(summary, this.#started);
    const usage = await rollUpUsage(context.database.db, runId, own).catch(() => own);
    const events: NewEvent[] = [];
    // The conversation's change comes first: the run's end is its last event.
    const title = (await this.#stillUntitled()) ? titleFromText(summary?.output ?? '') : '';
    events.push({
      run_id: runId,
      type: 'conversation.updated',
      payload: { in_flight_run_id: null, ...(title === '' ? {} : { title, title_source: 'auto' as const }) },
    });
    switch (outcome.status) {
      case 'completed': {
        // The provider's reason, so the answer can say "cut off", "filtered" or "refused".
        const { finishReason } = outcome;
        events.push(
          recorder.event({
            type: 'run.completed',
            payload: {
              message_id: runId,
              usage,
              ...(finishReason === undefined ? {} : { finish_reason: finishReason }),
            },
          }),
        );
        break;
      }
      case 'failed':
        events.push(
          recorder.event({ type: 'run.failed', payload: { message_id: runId, error: outcome.error, usage } }),
        );
        break;
      case 'cancelled':
        events.push(
          recorder.event({
            type: 'run.cancelled',
            payload: {
              message_id: runId,
              usage,
              ...(this.#cancelReason === 'superseded' ? { reason: 'superseded' as const } : {}),
            },
          }),
        );
        break;
      case 'interrupted':
        events.push(
          recorder.event({ type: 'run.interrupted', payload: { message_id: runId, reason: 'shutdown' } }),
        );
        break;
    }
    const status: RunStatus = outcome.status;
    const ended = Date.now();
    try {
      await writer.append(events, async (transaction) => {
        await storeRunEnd(transaction, run, {
          status,
          own,
          rolled: usage,
          error: outcome.status === 'failed' ? outcome.error : null,
          ended,
        });
        await transaction
          .updateTable('conversations')
          .set({ updated_at: ended })
          .where('id', '=', run.conversation_id)
          .execute();
        if (title !== '') {
          await transaction
            .updateTable('conversations')
            .set({ title, title_source: 'auto' })
            .where('id', '=', run.conversation_id)
            .where('title_source', '=', 'none')
            .execute();
        }
      });
      context.logger.info({ runId, conversationId: run.conversation_id, status, usage }, 'run finished');
    } catch (error) {
      context.logger.error({ err: error, runId, status }, 'the end of a run could not be stored');
    }
  }
}
