import type { ContextAssemblyReport, ReplayModelCall, WorkbenchEvent } from '@youyou/contracts';

/**
 * What a tool round records before the next call is assembled: in the same millisecond as a
 * report, these came first (they are the call's input); anything else is the call's output.
 */
const CALL_INPUT_TYPES: ReadonlySet<string> = new Set([
  'tool.result',
  'hitl.request',
  'hitl.resolved',
  'artifact.created',
  'artifact.updated',
  'plan.update',
  'todo.update',
  'agent.result',
]);

function beforeCall(event: WorkbenchEvent, at: number): boolean {
  const ts = Date.parse(event.ts);
  return ts < at || (ts === at && CALL_INPUT_TYPES.has(event.type));
}

/**
 * Places each model call's assembly report among a run's events (spec §4.17: replay with the
 * context observation beside each call). A report is stored when its request is assembled, just
 * before the call goes out, so what the call produced are the events recorded from then on: the
 * first one at or after the report's time is where the call starts (in the same millisecond, a tool
 * round's results still come before it). Reports and events share the server's clock; a run's
 * calls are sequential, so the positions never go backwards.
 *
 * @example
 * const calls = placeModelCalls(events, await contextAssembly.reportsOf(runId));
 */
export function placeModelCalls(
  events: readonly WorkbenchEvent[],
  reports: readonly ContextAssemblyReport[],
): ReplayModelCall[] {
  let from = 0;
  return reports.map((report) => {
    const at = Date.parse(report.created_at);
    let index = from;
    while (index < events.length && beforeCall(events[index] as WorkbenchEvent, at)) index += 1;
    from = index;
    return { call_index: report.call_index, before_seq: events[index]?.seq ?? null, report };
  });
}
