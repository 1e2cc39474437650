import { randomUUID } from 'node:crypto';
import {
  AgentError,
  type AgentErrorJSON,
  type AgentEvent,
  type FinishReason,
  type TurnSummary,
} from '@youyou/agent';
import type { Kysely, Transaction } from 'kysely';
import type { RunPhase, RunStatus, Schema } from '../database/index.ts';
import { ApiError } from '../errors/index.ts';
import { redactDeep } from '../security/index.ts';
import type { ConversationWriter, EventError, NewEvent, RunUsage } from '../events/index.ts';
import { RunRepository, UsageRepository, type RunRow } from '../storage/index.ts';
import { outcomeOf, summarizeArguments, ToolAuditRepository, type ToolDecision } from '../tools/index.ts';

/** Characters of deltas the database may lag behind before the run waits for it. */
const BACKLOG_LIMIT = 1_000_000;

/** How a run's turn ended. */
export type Outcome =
  | { status: 'completed'; summary: TurnSummary; finishReason?: FinishReason }
  | { status: 'failed'; error: EventError; summary?: TurnSummary }
  | { status: 'cancelled'; summary?: TurnSummary }
  | { status: 'interrupted' };

/**
 * An error as run events carry it, with every known secret and key-shaped string redacted: a
 * provider may quote the key it refused ("Incorrect API key provided: sk-…"), and the event log,
 * the Query and the SSE stream must never hold it.
 */
export function eventErrorOf(
  error: AgentErrorJSON | ApiError | AgentError,
  redact: (text: string) => string,
): EventError {
  if (error instanceof ApiError) {
    return {
      code: error.code,
      message: redact(error.message),
      retryable: error.retryable,
      source: 'server',
      ...(Object.keys(error.details).length === 0 ? {} : { details: redactDeep(error.details, redact) }),
    };
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

/** Any failure of a run that is not the model's: a storage error unless it says otherwise. */
export function failureOf(error: unknown, redact: (text: string) => string): EventError {
  if (error instanceof ApiError) return eventErrorOf(error, redact);
  return eventErrorOf(
    AgentError.fromUnknown(error, 'STORAGE_ERROR', { source: 'storage', retryable: true }),
    redact,
  );
}

/** A run's own usage from its turn summary. */
export function usageOf(summary: TurnSummary | undefined, startedAt: number): RunUsage {
  return {
    input_tokens: summary?.usage.inputTokens ?? 0,
    output_tokens: summary?.usage.outputTokens ?? 0,
    tool_calls: summary?.toolCalls ?? 0,
    model_calls: summary?.modelCalls ?? 0,
    duration_ms: Date.now() - startedAt,
    ...(summary?.usage.cachedInputTokens === undefined
      ? {}
      : { cache_read_tokens: summary.usage.cachedInputTokens }),
    ...(summary?.usage.cacheWriteTokens === undefined
      ? {}
      : { cache_write_tokens: summary.usage.cacheWriteTokens }),
  };
}

/** Cache token fields, left out when zero (most providers and runs have none). */
function cacheTokens(
  read: number,
  write: number,
): Pick<RunUsage, 'cache_read_tokens' | 'cache_write_tokens'> {
  return {
    ...(read > 0 ? { cache_read_tokens: read } : {}),
    ...(write > 0 ? { cache_write_tokens: write } : {}),
  };
}

/**
 * A run's usage with its sub-agents' added (spec §4.17: usage rolls up from children to the
 * parent); read when the run ends, after its children have.
 */
export async function rollUpUsage(db: Kysely<Schema>, runId: string, own: RunUsage): Promise<RunUsage> {
  const below = await new UsageRepository(db).ofDescendants(runId);
  return {
    input_tokens: own.input_tokens + below.input_tokens,
    output_tokens: own.output_tokens + below.output_tokens,
    tool_calls: own.tool_calls + below.tool_calls,
    model_calls: own.model_calls + below.model_calls,
    duration_ms: own.duration_ms,
    ...cacheTokens(
      (own.cache_read_tokens ?? 0) + (below.cache_read_tokens ?? 0),
      (own.cache_write_tokens ?? 0) + (below.cache_write_tokens ?? 0),
    ),
  };
}

/**
 * Stores a run's end in the transaction of its last event: its state with the rolled-up usage,
 * children still open ended with it, and its own usage row (the conversation's totals add rows,
 * so each run counts once).
 */
export async function storeRunEnd(
  transaction: Transaction<Schema>,
  run: RunRow,
  end: { status: RunStatus; own: RunUsage; rolled: RunUsage; error: EventError | null; ended: number },
): Promise<void> {
  const runs = new RunRepository(transaction);
  await runs.setState(
    run.id,
    {
      status: end.status,
      phase: 'done',
      ended_at: end.ended,
      usage: JSON.stringify(end.rolled),
      error: end.error === null ? null : JSON.stringify(end.error),
    },
    transaction,
  );
  for (const child of await runs.descendants(run.id, transaction)) {
    if (['pending', 'running', 'waiting_hitl'].includes(child.status)) {
      await runs.setState(
        child.id,
        { status: end.status === 'completed' ? 'cancelled' : end.status, phase: 'done', ended_at: end.ended },
        transaction,
      );
    }
  }
  await new UsageRepository(transaction).record(
    {
      runId: run.id,
      conversationId: run.conversation_id,
      projectId: run.project_id,
      modelId: run.model_id,
      usage: end.own,
    },
    transaction,
  );
}

/**
 * Turns one run's agent events into workbench events, in order, as they come (spec §4.2): text
 * and reasoning deltas, tool calls as child runs of kind `tool`, phases, non-fatal errors. Shared
 * by top-level turns and sub-agents, so both look the same to every renderer.
 *
 * @example
 * const recorder = new AgentEventRecorder({ run, writer, instanceId, onStorageFailure });
 * const outcome = await recorder.drive(session.send(input, { signal }));
 */
export class AgentEventRecorder {
  readonly #run: RunRow;
  readonly #writer: ConversationWriter;
  readonly #instanceId: string;
  readonly #onStorageFailure: (error: unknown) => void;
  readonly #redact: (text: string) => string;
  readonly #toolRuns = new Map<string, string>();
  readonly #toolStarts = new Map<string, { at: number; arguments: string }>();
  readonly #decisions: Map<string, ToolDecision>;
  #phase: RunPhase;

  constructor(options: {
    run: RunRow;
    writer: ConversationWriter;
    instanceId: string;
    phase?: RunPhase;
    /** Secrets out of error texts before they are stored. */
    redact: (text: string) => string;
    /** A write failed: the run must stop. */
    onStorageFailure: (error: unknown) => void;
    /** The confirmation policy's decisions by call id: each call's audit row says who decided. */
    decisions?: Map<string, ToolDecision>;
  }) {
    this.#decisions = options.decisions ?? new Map();
    this.#run = options.run;
    this.#writer = options.writer;
    this.#instanceId = options.instanceId;
    this.#onStorageFailure = options.onStorageFailure;
    this.#redact = options.redact;
    this.#phase = options.phase ?? 'pending';
  }

  get phase(): RunPhase {
    return this.#phase;
  }

  /** Drains a turn; `observe` sees every agent event after it is recorded. */
  async drive(turn: AsyncIterable<AgentEvent>, observe?: (event: AgentEvent) => void): Promise<Outcome> {
    let outcome: Outcome = { status: 'cancelled' };
    let fatal: AgentErrorJSON | undefined;
    for await (const event of turn) {
      const ended = this.#handle(event);
      observe?.(event);
      if (event.type === 'Error' && event.fatal) fatal = event.error;
      if (ended !== undefined) outcome = ended;
      if (ended === undefined && event.type === 'TurnComplete' && event.status === 'failed') {
        const error = event.error ?? fatal;
        outcome = {
          status: 'failed',
          error: eventErrorOf(error ?? new AgentError('PROVIDER_ERROR', 'The turn failed.'), this.#redact),
          summary: event,
        };
      }
      if (this.#writer.backlog > BACKLOG_LIMIT) await this.#writer.flushed();
    }
    return outcome;
  }

  setPhase(phase: RunPhase): void {
    if (this.#phase === phase) return;
    this.#phase = phase;
    this.append([this.event({ type: 'run.phase', payload: { phase, status: 'running' } })], (transaction) =>
      new RunRepository(transaction).setState(this.#run.id, { phase }, transaction),
    );
  }

  /** An event of this run. */
  event(event: Omit<NewEvent, 'run_id'>): NewEvent {
    return { ...event, run_id: this.#run.id } as NewEvent;
  }

  /** Queues events in order; a failure to store them stops the run. */
  append(events: NewEvent[], apply?: (transaction: Transaction<Schema>) => Promise<void>): void {
    this.#writer.append(events, apply).catch((error: unknown) => this.#onStorageFailure(error));
  }

  /** Maps one agent event; returns the outcome for the last event of a turn. */
  /** The call's audit row (spec §4.8), in the transaction of its result. */
  async #audit(
    transaction: Transaction<Schema>,
    event: Extract<AgentEvent, { type: 'ToolCallEnd' }>,
  ): Promise<void> {
    const run = this.#run;
    const ended = Date.now();
    const started = this.#toolStarts.get(event.callId);
    this.#toolStarts.delete(event.callId);
    const decision = this.#decisions.get(event.callId);
    this.#decisions.delete(event.callId);
    const { outcome, errorCode } = outcomeOf(event.output, event.success, decision?.denied === true);
    await new ToolAuditRepository(transaction).insert(
      {
        id: randomUUID(),
        conversation_id: run.conversation_id,
        project_id: run.project_id,
        run_id: run.id,
        call_id: event.callId,
        tool_name: event.toolName,
        arguments_summary: summarizeArguments(
          event.arguments === undefined ? (started?.arguments ?? '') : JSON.stringify(event.arguments),
        ),
        outcome,
        error_code: errorCode,
        duration_ms: event.durationMs,
        policy: decision?.policy ?? 'auto',
        decided_by: decision?.decided_by ?? 'policy',
        card_id: decision?.card_id ?? null,
        started_at: started?.at ?? ended - event.durationMs,
        ended_at: ended,
      },
      transaction,
    );
  }

  #handle(event: AgentEvent): Outcome | undefined {
    const runId = this.#run.id;
    switch (event.type) {
      case 'TextDelta':
        this.setPhase('responding');
        this.#writer.delta(runId, 'message.delta', runId, event.text);
        return undefined;
      case 'ReasoningDelta':
        this.setPhase('thinking');
        this.#writer.delta(runId, 'thinking.delta', runId, event.text);
        return undefined;
      case 'ToolCallStart': {
        this.setPhase('acting');
        const toolRunId = randomUUID();
        this.#toolRuns.set(event.callId, toolRunId);
        this.#toolStarts.set(event.callId, { at: Date.now(), arguments: event.arguments });
        this.append(
          [
            this.event({
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
        this.append(
          [
            this.event({
              type: 'tool.result',
              payload: {
                message_id: runId,
                call_id: event.callId,
                tool_name: event.toolName,
                output: event.output,
                success: event.success,
                duration_ms: event.durationMs,
                tool_run_id: toolRunId,
                ...attachmentsOf(event.metadata),
              },
            }),
          ],
          async (transaction) => {
            await new RunRepository(transaction).setState(
              toolRunId,
              { status: event.success ? 'completed' : 'failed', phase: 'done', ended_at: Date.now() },
              transaction,
            );
            await this.#audit(transaction, event);
          },
        );
        return undefined;
      }
      case 'ContextCompacted':
        this.append([
          this.event({
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
          this.append([
            this.event({
              type: 'error',
              payload: { message_id: runId, error: eventErrorOf(event.error, this.#redact) },
            }),
          ]);
        }
        return undefined;
      case 'TurnComplete':
        if (event.status !== 'completed') return undefined;
        return event.finishReason === undefined
          ? { status: 'completed', summary: event }
          : { status: 'completed', summary: event, finishReason: event.finishReason };
      case 'TurnCancelled':
        return { status: 'cancelled', summary: event };
    }
  }

  async #insertToolRun(transaction: Transaction<Schema>, toolRunId: string): Promise<void> {
    const run = this.#run;
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
        profile_id: run.profile_id,
        model_id: null,
        status: 'running',
        phase: 'acting',
        error: null,
        usage: null,
        instance_id: this.#instanceId,
        cancel_requested: 0,
        created_at: now,
        started_at: now,
        ended_at: null,
      })
      .execute();
  }
}

/** The stored files a tool's output names in `metadata.attachments` (MCP images), checked. */
function attachmentsOf(metadata: Readonly<Record<string, unknown>> | undefined): {
  attachments?: { upload_id: string; name: string; media_type: string; size: number }[];
} {
  const listed = metadata?.['attachments'];
  if (!Array.isArray(listed)) return {};
  const attachments = listed.filter(
    (entry): entry is { upload_id: string; name: string; media_type: string; size: number } =>
      typeof entry === 'object' &&
      entry !== null &&
      typeof (entry as Record<string, unknown>)['upload_id'] === 'string' &&
      typeof (entry as Record<string, unknown>)['name'] === 'string' &&
      typeof (entry as Record<string, unknown>)['media_type'] === 'string' &&
      typeof (entry as Record<string, unknown>)['size'] === 'number',
  );
  return attachments.length === 0
    ? {}
    : {
        attachments: attachments.map(({ upload_id, name, media_type, size }) => ({
          upload_id,
          name,
          media_type,
          size,
        })),
      };
}
