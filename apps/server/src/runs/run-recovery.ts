import type { SessionRecord } from '@youyou/agent';
import type { NewEvent } from '../events/index.ts';
import { RunRepository, type RunRow } from '../storage/index.ts';
import type { RunContext } from './run-context.ts';

const UNFINISHED_TOOL_NOTE = 'Error [INTERRUPTED]: The server stopped before this tool call finished.';

/**
 * Records that make an interrupted run's history whole again, so the next turn on its branch sends
 * the model a valid conversation: the text that streamed but was never recorded becomes an
 * incomplete reply (the agent adds its "interrupted" note after it), and tool calls without a
 * result get an error result.
 *
 * @example
 * await sessionStorage.append(runId, repairRecords(ownEvents, pathLength, Date.now()));
 */
export function repairRecords(
  own: readonly { type: string; payload: unknown }[],
  nextSequence: number,
  now: number,
): SessionRecord[] {
  let lastRecord = -1;
  own.forEach((event, index) => {
    if (event.type === 'session.record') lastRecord = index;
  });
  const records = own
    .filter((event) => event.type === 'session.record')
    .map((event) => (event.payload as { record: SessionRecord }).record);
  if (!records.some((record) => record.type === 'user_message')) return [];
  const turnId = records.findLast((record) => record.type === 'user_message')?.turnId ?? '';
  const answered = new Set(
    records.filter((record) => record.type === 'tool_result').map((record) => record.callId),
  );
  const repairs: SessionRecord[] = [];
  let sequence = nextSequence;
  for (const record of records) {
    if (record.type !== 'tool_call' || answered.has(record.callId)) continue;
    repairs.push({
      type: 'tool_result',
      sequence: sequence++,
      timestamp: now,
      turnId,
      callId: record.callId,
      toolName: record.toolName,
      content: UNFINISHED_TOOL_NOTE,
      isError: true,
      durationMs: 0,
    });
  }
  let text = '';
  let reasoning = '';
  for (const event of own.slice(lastRecord + 1)) {
    const payload = event.payload as { text?: string };
    if (event.type === 'message.delta') text += payload.text ?? '';
    if (event.type === 'thinking.delta') reasoning += payload.text ?? '';
  }
  if (text !== '' || reasoning !== '') {
    repairs.push({
      type: 'assistant_message',
      sequence,
      timestamp: now,
      turnId,
      content: text,
      ...(reasoning === '' ? {} : { reasoning }),
      status: 'incomplete',
      interruptedBy: 'error',
    });
  }
  return repairs;
}

const IN_FLIGHT: readonly string[] = ['pending', 'running', 'waiting_hitl'];

/** The events that end a sub-agent whose server is gone. */
function subagentInterrupted(run: RunRow): NewEvent[] {
  return [
    { run_id: run.id, type: 'run.interrupted', payload: { message_id: run.id, reason: 'crash' } },
    {
      run_id: run.id,
      type: 'agent.result',
      payload: {
        parent_run_id: run.parent_run_id ?? '',
        status: 'interrupted',
        summary: '',
        error: {
          code: 'SERVICE_UNAVAILABLE',
          message: 'The server stopped while the sub-agent ran.',
          retryable: true,
        },
        artifacts: [],
        usage: { input_tokens: 0, output_tokens: 0, tool_calls: 0, model_calls: 0, duration_ms: 0 },
      },
    },
  ];
}

/**
 * Marks a run whose server died `interrupted` (spec §4.2: no transparent resumption; the UI
 * offers to resend), with its children, and repairs its session records. Every event it had
 * stays.
 *
 * @example
 * for (const run of orphans) await interruptRun(context, run);
 */
export async function interruptRun(context: RunContext, run: RunRow): Promise<void> {
  const { eventLog, sessionStorage } = context;
  if (run.parent_run_id !== null) {
    await eventLog.transact(run.conversation_id, async (transaction, insert) => {
      const runs = new RunRepository(transaction);
      const current = await runs.find(run.id, transaction);
      if (current === undefined || !IN_FLIGHT.includes(current.status)) return;
      const ended = Date.now();
      await runs.setState(run.id, { status: 'interrupted', phase: 'done', ended_at: ended }, transaction);
      if (current.kind === 'subagent') await insert(subagentInterrupted(current));
    });
    return;
  }
  const own = await eventLog.read(run.conversation_id, { afterSeq: 0, internal: true, runIds: [run.id] });
  const path = (await sessionStorage.load(run.id)) ?? [];
  const repairs = repairRecords(own, path.length, Date.now());
  if (repairs.length > 0) await sessionStorage.append(run.id, repairs);
  const ended = Date.now();
  const events: NewEvent[] = [
    { run_id: run.id, type: 'conversation.updated', payload: { in_flight_run_id: null } },
    { run_id: run.id, type: 'run.interrupted', payload: { message_id: run.id, reason: 'crash' } },
  ];
  await eventLog.transact(run.conversation_id, async (transaction, insert) => {
    const runs = new RunRepository(transaction);
    const current = await runs.find(run.id, transaction);
    if (current === undefined || !['pending', 'running', 'waiting_hitl'].includes(current.status)) return;
    // A card cannot outlive its run: no transparent resumption (spec §4.2).
    await insert(
      await context.hitl.expireCardsOfRun(run.id, 'The server restarted while the card waited.', transaction),
    );
    await runs.setState(run.id, { status: 'interrupted', phase: 'done', ended_at: ended }, transaction);
    const children: NewEvent[] = [];
    for (const child of await runs.descendants(run.id, transaction)) {
      if (IN_FLIGHT.includes(child.status)) {
        await runs.setState(child.id, { status: 'interrupted', phase: 'done', ended_at: ended }, transaction);
        if (child.kind === 'subagent') children.push(...subagentInterrupted(child));
      }
    }
    // The sub-agents' ends come before their parent's: the tracker shows the whole tree stopped.
    await insert([...children, ...events]);
  });
  context.logger.info(
    { runId: run.id, conversationId: run.conversation_id, status: 'interrupted' },
    'run interrupted',
  );
}
