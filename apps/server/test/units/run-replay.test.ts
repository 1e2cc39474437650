import type { ContextAssemblyReport, WorkbenchEvent } from '@youyou/contracts';
import { describe, expect, it } from 'vitest';
import { placeModelCalls } from '../../src/context/index.ts';

const at = (ms: number): string => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();

function event(seq: number, type: string, ms: number): WorkbenchEvent {
  return { seq, run_id: 'run', conversation_id: 'c', ts: at(ms), v: 1, type, payload: {} } as WorkbenchEvent;
}

function report(callIndex: number, ms: number): ContextAssemblyReport {
  return {
    version: 1,
    call_index: callIndex,
    model_id: 'fake/model',
    context_window: 1000,
    output_reserve_tokens: 100,
    budget_tokens: 900,
    total_tokens: 10,
    tools_tokens: 0,
    estimator: 'chars/4',
    slots: [],
    trims: [],
    over_budget: false,
    duration_ms: 0,
    created_at: at(ms),
  };
}

describe('placing model calls among a replayed run’s events', () => {
  it('each call sits before the first event recorded after its request was assembled', () => {
    const events = [
      event(1, 'run.created', 0),
      event(2, 'run.phase', 1),
      event(3, 'tool.call', 20),
      event(4, 'tool.result', 30),
      event(5, 'message.delta', 50),
    ];
    expect(placeModelCalls(events, [report(0, 5), report(1, 40)]).map((call) => call.before_seq)).toEqual([
      3, 5,
    ]);
  });

  it("in the same millisecond a tool round's result is the next call's input, its text that call's output", () => {
    const events = [event(1, 'tool.call', 10), event(2, 'tool.result', 20), event(3, 'message.delta', 20)];
    expect(placeModelCalls(events, [report(0, 0), report(1, 20)]).map((call) => call.before_seq)).toEqual([
      1, 3,
    ]);
  });

  it('a call after the last event (refused over budget) has no place among the events', () => {
    const events = [event(1, 'run.created', 0)];
    expect(placeModelCalls(events, [report(0, 10)])).toMatchObject([{ call_index: 0, before_seq: null }]);
  });
});
