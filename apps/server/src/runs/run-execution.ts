import { randomUUID } from 'node:crypto';
import {
  AgentError,
  type AgentErrorJSON,
  type AgentEvent,
  type Session,
  type TurnSummary,
} from '@youyou/agent';
import type { Transaction } from 'kysely';
import type { RunPhase, RunStatus, Schema } from '../database/index.ts';
import { ApiError } from '../errors/index.ts';
import { redactDeep } from '../security/index.ts';
import type { ConversationWriter, EventError, MessageInput, NewEvent, RunUsage } from '../events/index.ts';
import type { AgentLease } from '../agents/index.ts';
import { artifactReferenceBlocks } from '../artifacts/index.ts';
import { RunRepository, UsageRepository, type RunRow } from '../storage/index.ts';
import { agentInputOf } from './agent-input.ts';
import { titleFromText } from './auto-title.ts';
import type { RunContext } from './run-context.ts';

/** Characters of deltas the database may lag behind before the run waits for it. */
const BACKLOG_LIMIT = 1_000_000;

type Outcome =
  | { status: 'completed'; summary: TurnSummary }
  | { status: 'failed'; error: EventError; summary?: TurnSummary }
  | { status: 'cancelled'; summary?: TurnSummary }
  | { status: 'interrupted' };

/**
 * An error as run events carry it, with every known secret and key-shaped string redacted: a
 * provider may quote the key it refused ("Incorrect API key provided: sk-…"), and the event log,
 * the Query and the SSE stream must never hold it.
 */
function eventErrorOf(
  error: AgentErrorJSON | ApiError | AgentError,
  redact: (text: string) => string,
): EventError {
  if (error instanceof ApiError) {
    return { code: error.code, message: redact(error.message), retryable: error.retryable, source: 'server' };
  }
  const json = error instanceof AgentError ? error.toJSON() : error;
  return {
    code: json.code,
    message: redact(json.message),
    retryable: json.retryable,
    source: json.source,
    ...(json.details === undefined ? {} : { details: redactDeep(json.details, redact) }),
  };
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
  readonly #toolRuns = new Map<string, string>();
  readonly #started = Date.now();
  #phase: RunPhase = 'pending';
  #shutdown = false;
  #storageFailure: unknown;
  #writer: ConversationWriter | undefined;

  constructor(options: RunExecutionOptions) {
    this.#options = options;
  }

  get runId(): string {
    return this.#options.run.id;
  }

  get conversationId(): string {
    return this.#options.run.conversation_id;
  }

  /** Stops the turn; it ends `cancelled` (partial output kept). */
  cancel(): void {
    this.#controller.abort(new AgentError('REQUEST_CANCELLED', 'The run was cancelled.'));
  }

  /** Stops the turn because the server is stopping; it ends `interrupted`. */
  interrupt(): void {
    this.#shutdown = true;
    this.cancel();
  }

  async run(): Promise<RunStatus> {
    const { context, run } = this.#options;
    const writer = context.eventLog.retain(run.conversation_id);
    this.#writer = writer;
    let lease: AgentLease | undefined;
    let session: Session | undefined;
    let outcome: Outcome;
    try {
      await writer.append(
        [this.#event({ type: 'run.phase', payload: { phase: 'thinking', status: 'running' } })],
        (transaction) =>
          new RunRepository(transaction).setState(
            run.id,
            {
              status: 'running',
              phase: 'thinking',
              started_at: this.#started,
              instance_id: context.instanceId,
            },
            transaction,
          ),
      );
      this.#phase = 'thinking';
      context.logger.info(
        { runId: run.id, conversationId: run.conversation_id, status: 'running' },
        'run started',
      );
      lease = await context.pool.acquire(run.conversation_id, this.#options.cwd, run.project_id);
      session = await this.#openSession(lease);
      outcome = await this.#drive(session);
    } catch (error) {
      outcome = this.#controller.signal.aborted
        ? { status: 'cancelled' }
        : { status: 'failed', error: this.#failureOf(error) };
    } finally {
      await session
        ?.close()
        .catch((error: unknown) =>
          context.logger.warn({ err: error, runId: run.id }, 'session close failed'),
        );
      lease?.release();
    }
    if (outcome.status === 'cancelled' && this.#shutdown) outcome = { status: 'interrupted' };
    if (this.#storageFailure !== undefined && outcome.status !== 'completed') {
      outcome = { status: 'failed', error: this.#failureOf(this.#storageFailure) };
    }
    await this.#finish(writer, outcome);
    context.eventLog.release(run.conversation_id);
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
    return lease.agent.resumeSession(run.id, modelId === undefined ? {} : { modelId });
  }

  async #drive(session: Session): Promise<Outcome> {
    const { context, input, storagePaths, cwd } = this.#options;
    const writer = this.#writer as ConversationWriter;
    const agentInput = await agentInputOf(input, {
      objects: context.objects,
      storagePaths,
      allowedRoots: [cwd, context.home],
    });
    agentInput.push(...(await artifactReferenceBlocks(context.artifacts, this.conversationId, input.text)));
    const turn = session.send(agentInput, { signal: this.#controller.signal });
    let outcome: Outcome = { status: 'cancelled' };
    let fatal: AgentErrorJSON | undefined;
    for await (const event of turn) {
      const ended = this.#handle(event);
      if (event.type === 'Error' && event.fatal) fatal = event.error;
      if (ended !== undefined) outcome = ended;
      if (ended === undefined && event.type === 'TurnComplete' && event.status === 'failed') {
        const error = event.error ?? fatal;
        outcome = {
          status: 'failed',
          error: eventErrorOf(error ?? new AgentError('PROVIDER_ERROR', 'The turn failed.'), context.redact),
          summary: event,
        };
      }
      if (writer.backlog > BACKLOG_LIMIT) await writer.flushed();
    }
    return outcome;
  }

  /** Maps one agent event; returns the outcome for the last event of a turn. */
  #handle(event: AgentEvent): Outcome | undefined {
    const runId = this.runId;
    const writer = this.#writer as ConversationWriter;
    switch (event.type) {
      case 'TextDelta':
        this.#setPhase('responding');
        writer.delta(runId, 'message.delta', runId, event.text);
        return undefined;
      case 'ReasoningDelta':
        this.#setPhase('thinking');
        writer.delta(runId, 'thinking.delta', runId, event.text);
        return undefined;
      case 'ToolCallStart': {
        this.#setPhase('acting');
        const toolRunId = randomUUID();
        this.#toolRuns.set(event.callId, toolRunId);
        this.#append(
          [
            this.#event({
              type: 'tool.call',
              payload: {
                message_id: runId,
                call_id: event.callId,
                tool_name: event.toolName,
                arguments: event.arguments,
                tool_run_id: toolRunId,
              },
            }),
          ],
          (transaction) => this.#insertToolRun(transaction, toolRunId),
        );
        return undefined;
      }
      case 'ToolCallEnd': {
        const toolRunId = this.#toolRuns.get(event.callId) ?? randomUUID();
        this.#append(
          [
            this.#event({
              type: 'tool.result',
              payload: {
                message_id: runId,
                call_id: event.callId,
                tool_name: event.toolName,
                output: event.output,
                success: event.success,
                duration_ms: event.durationMs,
                tool_run_id: toolRunId,
              },
            }),
          ],
          (transaction) =>
            new RunRepository(transaction).setState(
              toolRunId,
              { status: event.success ? 'completed' : 'failed', phase: 'done', ended_at: Date.now() },
              transaction,
            ),
        );
        return undefined;
      }
      case 'ContextCompacted':
        this.#append([
          this.#event({
            type: 'context.compacted',
            payload: {
              strategy: event.strategy,
              tokens_before: event.tokensBefore,
              tokens_after: event.tokensAfter,
              messages_removed: event.messagesRemoved,
            },
          }),
        ]);
        return undefined;
      case 'Error':
        if (!event.fatal) {
          this.#append([
            this.#event({
              type: 'error',
              payload: { message_id: runId, error: eventErrorOf(event.error, this.#options.context.redact) },
            }),
          ]);
        }
        return undefined;
      case 'TurnComplete':
        return event.status === 'completed' ? { status: 'completed', summary: event } : undefined;
      case 'TurnCancelled':
        return { status: 'cancelled', summary: event };
    }
  }

  #setPhase(phase: RunPhase): void {
    if (this.#phase === phase) return;
    this.#phase = phase;
    this.#append([this.#event({ type: 'run.phase', payload: { phase, status: 'running' } })], (transaction) =>
      new RunRepository(transaction).setState(this.runId, { phase }, transaction),
    );
  }

  #event(event: Omit<NewEvent, 'run_id'>): NewEvent {
    return { ...event, run_id: this.runId } as NewEvent;
  }

  /** Queues events in order; a failure to store them stops the run. */
  #append(events: NewEvent[], apply?: (transaction: Transaction<Schema>) => Promise<void>): void {
    (this.#writer as ConversationWriter).append(events, apply).catch((error: unknown) => {
      if (this.#storageFailure === undefined) this.#storageFailure = error;
      this.cancel();
    });
  }

  async #insertToolRun(transaction: Transaction<Schema>, toolRunId: string): Promise<void> {
    const { run } = this.#options;
    const now = Date.now();
    await transaction
      .insertInto('runs')
      .values({
        id: toolRunId,
        owner: null,
        conversation_id: run.conversation_id,
        project_id: run.project_id,
        parent_run_id: run.id,
        previous_run_id: null,
        user_message_id: null,
        kind: 'tool',
        profile_id: null,
        model_id: null,
        status: 'running',
        phase: 'acting',
        error: null,
        usage: null,
        instance_id: this.#options.context.instanceId,
        cancel_requested: 0,
        created_at: now,
        started_at: now,
        ended_at: null,
      })
      .execute();
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

  #failureOf(error: unknown): EventError {
    const { redact } = this.#options.context;
    if (error instanceof ApiError) return eventErrorOf(error, redact);
    return eventErrorOf(
      AgentError.fromUnknown(error, 'STORAGE_ERROR', { source: 'storage', retryable: true }),
      redact,
    );
  }

  /** The run's last event, with its final state, children and usage, in one transaction. */
  async #finish(writer: ConversationWriter, outcome: Outcome): Promise<void> {
    const { context, run } = this.#options;
    const runId = run.id;
    const summary = 'summary' in outcome ? outcome.summary : undefined;
    const usage: RunUsage = {
      input_tokens: summary?.usage.inputTokens ?? 0,
      output_tokens: summary?.usage.outputTokens ?? 0,
      tool_calls: summary?.toolCalls ?? 0,
      model_calls: summary?.modelCalls ?? 0,
      duration_ms: Date.now() - this.#started,
    };
    const events: NewEvent[] = [];
    // The conversation's change comes first: the run's end is its last event.
    const title = (await this.#stillUntitled()) ? titleFromText(summary?.output ?? '') : '';
    events.push({
      run_id: runId,
      type: 'conversation.updated',
      payload: { in_flight_run_id: null, ...(title === '' ? {} : { title, title_source: 'auto' as const }) },
    });
    switch (outcome.status) {
      case 'completed':
        events.push(this.#event({ type: 'run.completed', payload: { message_id: runId, usage } }));
        break;
      case 'failed':
        events.push(
          this.#event({ type: 'run.failed', payload: { message_id: runId, error: outcome.error, usage } }),
        );
        break;
      case 'cancelled':
        events.push(this.#event({ type: 'run.cancelled', payload: { message_id: runId, usage } }));
        break;
      case 'interrupted':
        events.push(
          this.#event({ type: 'run.interrupted', payload: { message_id: runId, reason: 'shutdown' } }),
        );
        break;
    }
    const status: RunStatus = outcome.status;
    const ended = Date.now();
    try {
      await writer.append(events, async (transaction) => {
        const runs = new RunRepository(transaction);
        await runs.setState(
          runId,
          {
            status,
            phase: 'done',
            ended_at: ended,
            usage: JSON.stringify(usage),
            error: outcome.status === 'failed' ? JSON.stringify(outcome.error) : null,
          },
          transaction,
        );
        for (const child of await runs.descendants(runId, transaction)) {
          if (['pending', 'running', 'waiting_hitl'].includes(child.status)) {
            await runs.setState(
              child.id,
              { status: status === 'completed' ? 'cancelled' : status, phase: 'done', ended_at: ended },
              transaction,
            );
          }
        }
        await new UsageRepository(transaction).record(
          {
            runId,
            conversationId: run.conversation_id,
            projectId: run.project_id,
            modelId: run.model_id,
            usage,
          },
          transaction,
        );
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
