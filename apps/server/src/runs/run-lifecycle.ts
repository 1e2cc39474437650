import type { RunAssembly } from '../context/index.ts';
import type { ConversationWriter, EventError } from '../events/index.ts';
import { RunRepository, type RunRow } from '../storage/index.ts';
import type { ToolDecision } from '../tools/index.ts';
import { AgentEventRecorder, failureOf, type Outcome } from './agent-event-recorder.ts';
import type { RunContext } from './run-context.ts';

/** What a top-level run and a sub-agent run do differently; `runLifecycle` does the rest. */
export interface RunLifecycleSteps<End> {
  /** Work that need not wait for the run's start to commit (building the agent): runs beside it. */
  prepare?(): Promise<void>;
  /** Opens the agent and its session and drives the turn (the run is `running` by then). */
  drive(recorder: AgentEventRecorder, writer: ConversationWriter): Promise<Outcome>;
  /** Releases what `drive` opened, whether it finished, failed or was aborted. */
  release(): Promise<void>;
  /** The budget failure the outcome becomes, when the run went over one. */
  overBudget(outcome: Outcome): EventError | undefined;
  /** Whether the abort that cancelled the run was the server stopping. */
  interrupted(): boolean;
  /** Stores the run's last events and final state. */
  finish(recorder: AgentEventRecorder, writer: ConversationWriter, outcome: Outcome): Promise<End>;
}

export interface RunLifecycleOptions {
  context: RunContext;
  run: RunRow;
  /** When the run started (its `started_at`, and its wall time). */
  started: number;
  signal: AbortSignal;
  /** Stops the run (a write failed). */
  cancel(): void;
  /** The confirmation policy's decisions by call id, shared with the run's binding. */
  decisions: Map<string, ToolDecision>;
  /** Its context assembly: the reports are stored before its end is. */
  assembly: RunAssembly | undefined;
}

/**
 * The one lifecycle of a run, a turn's or a sub-agent's: holds the conversation's writer, records
 * the agent's events, marks the run `running`, drives it, settles the outcome (an abort is
 * `cancelled`, or `interrupted` when the server stops; a budget passed and a failed write are
 * failures), stores the assembly reports and then the run's end.
 *
 * @example
 * const { outcome, end } = await runLifecycle(options, steps);
 */
export async function runLifecycle<End>(
  options: RunLifecycleOptions,
  steps: RunLifecycleSteps<End>,
): Promise<{ outcome: Outcome; end: End; recorder: AgentEventRecorder }> {
  const { context, run } = options;
  const writer = context.eventLog.retain(run.conversation_id);
  let storageFailure: unknown;
  const recorder = new AgentEventRecorder({
    run,
    writer,
    instanceId: context.instanceId,
    phase: 'thinking',
    redact: context.redact,
    onStorageFailure: (error) => {
      if (storageFailure === undefined) storageFailure = error;
      options.cancel();
    },
    decisions: options.decisions,
  });
  let outcome: Outcome;
  try {
    const running = writer.append(
      [recorder.event({ type: 'run.phase', payload: { phase: 'thinking', status: 'running' } })],
      (transaction) =>
        new RunRepository(transaction).setState(
          run.id,
          {
            status: 'running',
            phase: 'thinking',
            started_at: options.started,
            instance_id: context.instanceId,
          },
          transaction,
        ),
    );
    const [stored, prepared] = await Promise.allSettled([running, steps.prepare?.()]);
    // A failed start write explains a failed preparation (its cancel aborted it): it wins.
    if (stored.status === 'rejected') throw stored.reason;
    if (prepared.status === 'rejected') throw prepared.reason;
    outcome = await steps.drive(recorder, writer);
  } catch (error) {
    outcome = options.signal.aborted
      ? { status: 'cancelled' }
      : { status: 'failed', error: failureOf(error, context.redact) };
  } finally {
    await steps.release();
  }
  const exceeded = steps.overBudget(outcome);
  if (exceeded !== undefined) {
    outcome = {
      status: 'failed',
      error: exceeded,
      ...('summary' in outcome && outcome.summary !== undefined ? { summary: outcome.summary } : {}),
    };
  } else if (outcome.status === 'cancelled' && steps.interrupted()) outcome = { status: 'interrupted' };
  if (storageFailure !== undefined && outcome.status !== 'completed') {
    outcome = { status: 'failed', error: failureOf(storageFailure, context.redact) };
  }
  await options.assembly?.flush();
  const end = await steps.finish(recorder, writer, outcome);
  context.eventLog.release(run.conversation_id);
  return { outcome, end, recorder };
}
