import { randomUUID } from 'node:crypto';
import type { SessionRecord } from '@youyou/agent';
import type { Insertable } from 'kysely';
import type { AgentSessionsTable, EventsTable, RunsTable, WorkbenchDatabase } from '../database/index.ts';
import { EVENT_VERSION, type EventPayloads } from '../events/index.ts';
import { describeRun } from '../storage/index.ts';

export interface SeedOptions {
  /** Exchanges (a user message and an answer each): 5,000 make a 10,000-message conversation. */
  exchanges: number;
  title?: string;
  /** The model id runs are recorded with. */
  modelId?: string;
  /** The text of exchange `index`: default `question {index}` / `answer {index}`. */
  text?: (index: number) => { question: string; answer: string };
}

/** Rows per INSERT statement. */
const BATCH = 500;

/**
 * Writes a finished conversation straight into the database, exactly as runs would have left it
 * (runs, `run.*` and `message.delta` events, the agent's session records), far faster than
 * running it: for tests and benchmarks of large conversations.
 *
 * @example
 * const conversationId = await seedConversation(database, { exchanges: 5_000 });
 */
export async function seedConversation(database: WorkbenchDatabase, options: SeedOptions): Promise<string> {
  const conversationId = randomUUID();
  const modelId = options.modelId ?? 'fake/fake-model';
  const text =
    options.text ?? ((index: number) => ({ question: `question ${index}`, answer: `answer ${index}` }));
  const started = Date.now() - options.exchanges * 1_000;
  const runs: Insertable<RunsTable>[] = [];
  const events: Insertable<EventsTable>[] = [];
  const sessions: Insertable<AgentSessionsTable>[] = [];
  let seq = 0;
  let sequence = 0;
  let previous: string | null = null;
  const event = <Type extends keyof EventPayloads>(
    runId: string,
    ts: number,
    type: Type,
    payload: EventPayloads[Type],
  ): void => {
    events.push({
      conversation_id: conversationId,
      seq: ++seq,
      run_id: runId,
      ts,
      v: EVENT_VERSION,
      type,
      payload: JSON.stringify(payload),
    });
  };
  for (let index = 0; index < options.exchanges; index++) {
    const runId = randomUUID();
    const userMessageId = randomUUID();
    const at = started + index * 1_000;
    const { question, answer } = text(index);
    const run: Insertable<RunsTable> & { previous_run_id: string | null } = {
      id: runId,
      owner: null,
      conversation_id: conversationId,
      project_id: null,
      parent_run_id: null,
      previous_run_id: previous,
      user_message_id: userMessageId,
      kind: 'conversation',
      profile_id: null,
      model_id: modelId,
      status: 'completed',
      phase: 'done',
      error: null,
      usage: null,
      instance_id: null,
      cancel_requested: 0,
      created_at: at,
      started_at: at,
      ended_at: at + 500,
    };
    runs.push(run);
    const description = describeRun({ ...run, status: 'pending', phase: 'pending' } as Parameters<
      typeof describeRun
    >[0]);
    event(runId, at, 'run.created', {
      run: description,
      input: { text: question, attachments: [], skills: [] },
      user_message_id: userMessageId,
      assistant_message_id: runId,
    });
    event(runId, at, 'run.phase', { phase: 'thinking', status: 'running' });
    const records: SessionRecord[] = [];
    if (index === 0) {
      records.push({
        type: 'metadata',
        kind: 'session_created',
        modelId,
        cwd: '/',
        sequence: sequence++,
        timestamp: at,
      });
      records.push({
        type: 'metadata',
        kind: 'title',
        title: options.title ?? question,
        sequence: sequence++,
        timestamp: at,
      });
    }
    records.push({
      type: 'user_message',
      turnId: runId,
      content: [{ type: 'text', text: question }],
      sequence: sequence++,
      timestamp: at,
    });
    for (const record of records) event(runId, at, 'session.record', { record });
    event(runId, at + 100, 'run.phase', { phase: 'responding', status: 'running' });
    event(runId, at + 100, 'message.delta', { message_id: runId, text: answer });
    const reply: SessionRecord = {
      type: 'assistant_message',
      turnId: runId,
      content: answer,
      status: 'complete',
      sequence: sequence++,
      timestamp: at + 400,
    };
    event(runId, at + 400, 'session.record', { record: reply });
    // The summary WorkbenchSessionStorage keeps per session (run): its branch so far.
    sessions.push({
      id: runId,
      conversation_id: conversationId,
      title: options.title ?? text(0).question,
      created_at: started,
      updated_at: at + 400,
      message_count: (index + 1) * 2,
    });
    event(runId, at + 500, 'run.completed', {
      message_id: runId,
      usage: { input_tokens: 10, output_tokens: 5, tool_calls: 0, model_calls: 1, duration_ms: 500 },
    });
    previous = runId;
  }
  const now = Date.now();
  await database.db.transaction().execute(async (transaction) => {
    await transaction
      .insertInto('conversations')
      .values({
        id: conversationId,
        owner: null,
        project_id: null,
        title: options.title ?? 'Seeded conversation',
        title_source: 'auto',
        model_id: modelId,
        active_run_id: previous,
        last_seq: seq,
        read_seq: seq,
        created_at: started,
        updated_at: now,
      })
      .execute();
    for (let start = 0; start < runs.length; start += BATCH) {
      await transaction
        .insertInto('runs')
        .values(runs.slice(start, start + BATCH))
        .execute();
    }
    for (let start = 0; start < events.length; start += BATCH) {
      await transaction
        .insertInto('events')
        .values(events.slice(start, start + BATCH))
        .execute();
    }
    for (let start = 0; start < sessions.length; start += BATCH) {
      await transaction
        .insertInto('agent_sessions')
        .values(sessions.slice(start, start + BATCH))
        .execute();
    }
  });
  return conversationId;
}
