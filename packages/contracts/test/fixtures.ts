import type { NewEvent, WorkbenchEvent } from '../src/index.ts';

/** Numbers events as the log would: one conversation, increasing seq. */
export function eventLog(): {
  numbered(event: NewEvent): WorkbenchEvent;
  created(runId: string, text?: string): WorkbenchEvent;
} {
  let seq = 0;
  const numbered = (event: NewEvent): WorkbenchEvent =>
    ({ ...event, seq: ++seq, conversation_id: 'c', ts: '2026-01-01T00:00:00.000Z', v: 1 }) as WorkbenchEvent;
  return {
    numbered,
    created: (runId, text = 'question') =>
      numbered({
        run_id: runId,
        type: 'run.created',
        payload: {
          run: {
            id: runId,
            conversation_id: 'c',
            parent_run_id: null,
            previous_run_id: null,
            user_message_id: `u-${runId}`,
            kind: 'conversation',
            status: 'pending',
            phase: 'pending',
            model_id: 'm',
            created_at: '2026-01-01T00:00:00.000Z',
          },
          input: { text, attachments: [], skills: [] },
          user_message_id: `u-${runId}`,
          assistant_message_id: runId,
        },
      }),
  };
}
