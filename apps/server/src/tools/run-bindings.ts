import type { ToolDecider, ToolPolicy } from '@youyou/contracts';
import type { Transaction } from 'kysely';
import type { Schema } from '../database/index.ts';
import type { InsertEvents, NewEvent, WorkbenchEvent } from '../events/index.ts';

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
