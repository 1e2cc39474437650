import type { HitlCardRequester, ToolDecider, ToolPolicy } from '@youyou/contracts';
import type { Transaction } from 'kysely';
import type { Schema } from '../database/index.ts';
import type {
  ConversationWriter,
  EventLog,
  InsertEvents,
  NewEvent,
  WorkbenchEvent,
} from '../events/index.ts';

/** How the confirmation policy decided one call, for the audit. */
export interface ToolDecision {
  policy: ToolPolicy;
  decided_by: ToolDecider;
  denied: boolean;
  card_id: string | null;
}

/**
 * What the workbench's tools and plugins need to know about the run they serve. The agent hands a
 * tool only its session id, which is the run id (decision 0003); the run registers this binding
 * under that id for as long as it executes.
 */
export interface RunBinding {
  runId: string;
  /**
   * The top-level run whose answer shows this run's cards: the run itself, or for a sub-agent the
   * conversation's turn that spawned it (the conversation is what waits for the user).
   */
  messageRunId: string;
  conversationId: string;
  projectId: string | null;
  /** The project's directory (or the scratch directory), real path. */
  cwd: string;
  /** Real paths of the files uploaded to this conversation that tools may read. */
  uploadFiles: () => Promise<string[]>;
  /** Aborted when the run is cancelled or interrupted. */
  signal: AbortSignal;
  /** True once the run is being interrupted (server stopping), not cancelled. */
  interrupted: () => boolean;
  /** Appends events through the run's ordered writer, with work in the same transaction. */
  append: (
    events: readonly NewEvent[],
    apply?: (transaction: Transaction<Schema>) => Promise<void>,
  ) => Promise<WorkbenchEvent[]>;
  /**
   * Runs `work` in one transaction after everything the run queued is committed, so events it
   * inserts come after the run's earlier ones; for work that must read before it writes.
   */
  transact: <T>(work: (transaction: Transaction<Schema>, insert: InsertEvents) => Promise<T>) => Promise<T>;
  /** Decisions of the confirmation policy by call id. */
  decisions: Map<string, ToolDecision>;
  /** The profile's `hitl.timeoutSec`: the longest any card of this run waits; null waits. */
  hitlTimeoutSec: number | null;
  /** For a sub-agent's run: who it is, named on every card it raises. */
  subagent?: HitlCardRequester;
}

/**
 * A run's binding over its conversation's ordered writer.
 *
 * @example
 * const unbind = bindings.register(createRunBinding({ run, messageRunId: run.id, cwd, writer, eventLog, … }));
 */
export function createRunBinding(options: {
  run: { id: string; conversation_id: string; project_id: string | null };
  messageRunId: string;
  cwd: string;
  uploadFiles: () => Promise<string[]>;
  signal: AbortSignal;
  interrupted: () => boolean;
  writer: ConversationWriter;
  eventLog: EventLog;
  decisions: Map<string, ToolDecision>;
  hitlTimeoutSec?: number | null;
  subagent?: HitlCardRequester;
}): RunBinding {
  const { run, writer, eventLog } = options;
  return {
    runId: run.id,
    messageRunId: options.messageRunId,
    conversationId: run.conversation_id,
    projectId: run.project_id,
    cwd: options.cwd,
    uploadFiles: options.uploadFiles,
    signal: options.signal,
    interrupted: options.interrupted,
    append: (events, apply) => writer.append(events, apply),
    transact: async (work) => {
      await writer.flushed();
      return eventLog.transact(run.conversation_id, work);
    },
    decisions: options.decisions,
    hitlTimeoutSec: options.hitlTimeoutSec ?? null,
    ...(options.subagent === undefined ? {} : { subagent: options.subagent }),
  };
}

/**
 * The bindings of the runs this server executes, by run id.
 *
 * @example
 * bindings.register(binding);
 * bindings.get(context.sessionId)?.conversationId;
 */
export class RunBindings {
  readonly #bindings = new Map<string, RunBinding>();

  register(binding: RunBinding): () => void {
    this.#bindings.set(binding.runId, binding);
    return () => {
      if (this.#bindings.get(binding.runId) === binding) this.#bindings.delete(binding.runId);
    };
  }

  get(runId: string): RunBinding | undefined {
    return this.#bindings.get(runId);
  }
}
