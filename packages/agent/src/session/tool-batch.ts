import type { AgentEventBody } from '../events/index.ts';
import type { ToolCallRequest } from '../provider/index.ts';
import type { DispatchContext, ToolCallOutcome, ToolDispatcher } from '../tools/index.ts';

type ToolEvent = Extract<AgentEventBody, { type: 'ToolCallStart' | 'ToolCallEnd' }>;

/** The result a call gets when the turn is cancelled before it runs (spec §6.2). */
export function cancelledOutcome(call: ToolCallRequest): ToolCallOutcome {
  return {
    callId: call.callId,
    toolName: call.toolName,
    arguments: undefined,
    content: 'Error [REQUEST_CANCELLED]: The user cancelled the turn before this tool call ran.',
    isError: true,
    durationMs: 0,
    errorCode: 'REQUEST_CANCELLED',
  };
}

/** The result a call gets when the turn's tool-call limit is reached before it runs (spec §4.1). */
export function limitOutcome(call: ToolCallRequest, limit: number): ToolCallOutcome {
  return {
    callId: call.callId,
    toolName: call.toolName,
    arguments: undefined,
    content: `Error [MAX_TOOL_CALLS_EXCEEDED]: This turn reached its limit of ${limit} tool calls, so this call was not run and the turn was ended. Tell the user what is done and what remains.`,
    isError: true,
    durationMs: 0,
    errorCode: 'MAX_TOOL_CALLS_EXCEEDED',
  };
}

/** The result of a call whose arguments were cut off at the token limit: it never runs. */
export function truncatedOutcome(call: ToolCallRequest): ToolCallOutcome {
  return {
    callId: call.callId,
    toolName: call.toolName,
    arguments: undefined,
    content: `Error [INVALID_INPUT]: Your reply reached the output token limit while writing the arguments of this call, so they are incomplete and the call was not run. Make the call again with shorter arguments (for example, split a large write into parts).`,
    isError: true,
    durationMs: 0,
    errorCode: 'INVALID_INPUT',
  };
}

export function startEvent(call: ToolCallRequest): ToolEvent {
  return { type: 'ToolCallStart', callId: call.callId, toolName: call.toolName, arguments: call.arguments };
}

/** The ToolCallEnd event of an outcome. */
export function endEvent(outcome: ToolCallOutcome): ToolEvent {
  return {
    type: 'ToolCallEnd',
    callId: outcome.callId,
    toolName: outcome.toolName,
    arguments: outcome.arguments,
    output: outcome.content,
    durationMs: outcome.durationMs,
    success: !outcome.isError,
    ...(outcome.metadata === undefined ? {} : { metadata: outcome.metadata }),
  };
}

/**
 * Runs one batch of tool calls (spec §4.1): all read-only → concurrently, ending events in completion
 * order; any mutating → one at a time in the model's order. After a cancel, running calls finish and
 * calls not yet started get a cancelled result. Returns outcomes in call order.
 */
export async function* runToolBatch(
  dispatcher: ToolDispatcher,
  calls: readonly ToolCallRequest[],
  context: DispatchContext,
): AsyncGenerator<ToolEvent, ToolCallOutcome[]> {
  const outcomes: ToolCallOutcome[] = new Array<ToolCallOutcome>(calls.length);
  if (calls.length > 1 && dispatcher.canRunConcurrently(calls) && !context.signal.aborted) {
    for (const call of calls) yield startEvent(call);
    const pending = new Map(
      calls.map((call, index) => [
        index,
        dispatcher.dispatch(call, context).then((outcome) => ({ index, outcome })),
      ]),
    );
    while (pending.size > 0) {
      const { index, outcome } = await Promise.race(pending.values());
      pending.delete(index);
      outcomes[index] = outcome;
      yield endEvent(outcome);
    }
    return outcomes;
  }
  for (const [index, call] of calls.entries()) {
    yield startEvent(call);
    const outcome = context.signal.aborted
      ? cancelledOutcome(call)
      : await dispatcher.dispatch(call, context);
    outcomes[index] = outcome;
    yield endEvent(outcome);
  }
  return outcomes;
}
