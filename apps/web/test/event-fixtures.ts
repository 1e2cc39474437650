import type { ConversationView, WorkbenchEvent } from '@youyou/contracts';

/** Builds events of one conversation with increasing seq, the way the server numbers them. */
export function eventFactory(conversationId = 'c1') {
  let seq = 0;
  const envelope = { conversation_id: conversationId, ts: '2026-01-01T00:00:00.000Z', v: 1 };
  const next = <Event extends WorkbenchEvent>(
    event: Omit<Event, 'seq' | 'conversation_id' | 'ts' | 'v'>,
  ): WorkbenchEvent => {
    seq += 1;
    return { ...envelope, seq, ...event } as WorkbenchEvent;
  };
  return {
    created: (runId: string, text: string, previousRunId: string | null = null) =>
      next({
        type: 'run.created',
        run_id: runId,
        payload: {
          run: {
            id: runId,
            conversation_id: conversationId,
            parent_run_id: null,
            previous_run_id: previousRunId,
            user_message_id: `${runId}-user`,
            kind: 'conversation',
            status: 'pending',
            phase: 'pending',
            model_id: 'fake/fake-model',
            created_at: '2026-01-01T00:00:00.000Z',
          },
          input: { text, attachments: [], skills: [] },
          user_message_id: `${runId}-user`,
          assistant_message_id: `${runId}-assistant`,
        },
      } as never),
    phase: (runId: string) =>
      next({
        type: 'run.phase',
        run_id: runId,
        payload: { phase: 'responding', status: 'running' },
      } as never),
    delta: (runId: string, text: string) =>
      next({
        type: 'message.delta',
        run_id: runId,
        payload: { message_id: `${runId}-assistant`, text },
      } as never),
    thinking: (runId: string, text: string) =>
      next({
        type: 'thinking.delta',
        run_id: runId,
        payload: { message_id: `${runId}-assistant`, text },
      } as never),
    toolCall: (runId: string, callId: string) =>
      next({
        type: 'tool.call',
        run_id: runId,
        payload: {
          message_id: `${runId}-assistant`,
          call_id: callId,
          tool_name: 'lookup',
          arguments: '{"q":1}',
          tool_run_id: `t-${callId}`,
        },
      } as never),
    toolResult: (runId: string, callId: string) =>
      next({
        type: 'tool.result',
        run_id: runId,
        payload: {
          message_id: `${runId}-assistant`,
          call_id: callId,
          tool_name: 'lookup',
          output: 'found',
          success: true,
          duration_ms: 12,
          tool_run_id: `t-${callId}`,
        },
      } as never),
    completed: (runId: string) =>
      next({
        type: 'run.completed',
        run_id: runId,
        payload: {
          message_id: `${runId}-assistant`,
          usage: { input_tokens: 1, output_tokens: 2, tool_calls: 0, model_calls: 1, duration_ms: 3000 },
        },
      } as never),
    interrupted: (runId: string) =>
      next({
        type: 'run.interrupted',
        run_id: runId,
        payload: { message_id: `${runId}-assistant`, reason: 'crash' },
      } as never),
    get seq() {
      return seq;
    },
  };
}

/** A Query with the given messages at `lastSeq`. */
export function queryOf(
  messages: ConversationView['messages'],
  lastSeq: number,
  extra: Partial<ConversationView> = {},
): ConversationView {
  return {
    conversation: {
      id: 'c1',
      project_id: null,
      title: 'Test',
      title_source: 'user',
      model_id: null,
      profile_id: null,
      active_run_id: null,
      in_flight_run_id: null,
      last_seq: lastSeq,
      read_seq: 0,
      waiting_for_user: false,
      created_at: '',
      updated_at: '',
    },
    messages,
    runs: [],
    branch_length: messages.length,
    in_flight_run: null,
    last_seq: lastSeq,
    ...extra,
  };
}
