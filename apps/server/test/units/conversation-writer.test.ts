import { describe, expect, it } from 'vitest';
import { ConversationWriter, type ApplyInTransaction } from '../../src/events/index.ts';
import type { NewEvent, WorkbenchEvent } from '../../src/events/index.ts';

/** A writer over an in-memory "database" that records each committed batch. */
function recordingWriter(
  options: {
    fail?: (batch: readonly NewEvent[]) => boolean;
    delayMs?: number;
    deltaIntervalMs?: number;
  } = {},
) {
  const batches: NewEvent[][] = [];
  let seq = 0;
  const writer = new ConversationWriter({
    deltaIntervalMs: options.deltaIntervalMs ?? 5,
    commit: async (events, _applies: readonly ApplyInTransaction[]) => {
      if (options.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      if (options.fail?.(events) === true) throw new Error('disk full');
      batches.push(events.map((event) => structuredClone(event)));
      return events.map(
        (event) => ({ ...event, seq: ++seq, conversation_id: 'c', ts: '', v: 1 }) as WorkbenchEvent,
      );
    },
  });
  return { writer, batches };
}

describe('ConversationWriter', () => {
  it('merges consecutive deltas of one message into one event, committed in one batch', async () => {
    const { writer, batches } = recordingWriter();
    for (const piece of ['Hel', 'lo', ', ', 'world']) writer.delta('r1', 'message.delta', 'r1', piece);
    expect(writer.backlog).toBe(12);
    await writer.flushed();
    expect(batches).toEqual([
      [{ run_id: 'r1', type: 'message.delta', payload: { message_id: 'r1', text: 'Hello, world' } }],
    ]);
    expect(writer.idle).toBe(true);
  });

  it('commits a message’s first delta at once and holds the next ones for the interval', async () => {
    const { writer, batches } = recordingWriter({ deltaIntervalMs: 3_600_000 });
    writer.delta('r1', 'message.delta', 'm1', 'Hel');
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([
      [{ run_id: 'r1', type: 'message.delta', payload: { message_id: 'm1', text: 'Hel' } }],
    ]);
    writer.delta('r1', 'message.delta', 'm1', 'lo');
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toHaveLength(1);
    writer.delta('r1', 'message.delta', 'm2', 'Next');
    await writer.flushed();
    expect(batches.flat().map((event) => 'text' in event.payload && event.payload.text)).toEqual([
      'Hel',
      'lo',
      'Next',
    ]);
  });

  it('keeps the agent’s order: thinking, text and other events stay apart and in sequence', async () => {
    const { writer, batches } = recordingWriter();
    writer.delta('r1', 'thinking.delta', 'r1', 'hmm ');
    writer.delta('r1', 'thinking.delta', 'r1', 'ok');
    writer.delta('r1', 'message.delta', 'r1', 'A');
    const appended = writer.append([
      { run_id: 'r1', type: 'run.phase', payload: { phase: 'acting', status: 'running' } },
    ]);
    writer.delta('r1', 'message.delta', 'r1', 'B');
    const [event] = await appended;
    await writer.flushed();
    expect(
      batches.flat().map((item) => [item.type, 'text' in item.payload ? item.payload.text : '']),
    ).toEqual([
      ['thinking.delta', 'hmm ok'],
      ['message.delta', 'A'],
      ['run.phase', ''],
      ['message.delta', 'B'],
    ]);
    expect(event?.seq).toBe(3);
  });

  it('an append commits at once with the deltas before it, without waiting for the delta interval', async () => {
    const { writer, batches } = recordingWriter();
    writer.delta('r1', 'message.delta', 'r1', 'x');
    await writer.append([
      {
        run_id: 'r1',
        type: 'run.completed',
        payload: {
          message_id: 'r1',
          usage: { input_tokens: 0, output_tokens: 0, tool_calls: 0, model_calls: 0, duration_ms: 0 },
        },
      },
    ]);
    expect(batches).toHaveLength(1);
    expect(batches[0]?.map((event) => event.type)).toEqual(['message.delta', 'run.completed']);
  });

  it('while a batch commits, what arrives waits and goes in the next one', async () => {
    const { writer, batches } = recordingWriter({ delayMs: 20 });
    const first = writer.append([
      { run_id: 'r1', type: 'run.phase', payload: { phase: 'thinking', status: 'running' } },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    writer.delta('r1', 'message.delta', 'r1', 'late ');
    writer.delta('r1', 'message.delta', 'r1', 'text');
    await first;
    await writer.flushed();
    expect(batches.map((batch) => batch.length)).toEqual([1, 1]);
    expect(batches[1]?.[0]?.payload).toEqual({ message_id: 'r1', text: 'late text' });
  });

  it('a failed commit rejects the appends in it and reports lost deltas', async () => {
    const lost: unknown[] = [];
    const writer = new ConversationWriter({
      deltaIntervalMs: 1,
      commit: async () => {
        throw new Error('disk full');
      },
      onDeltaFailure: (error) => lost.push(error),
    });
    writer.delta('r1', 'message.delta', 'r1', 'x');
    await expect(
      writer.append([{ run_id: 'r1', type: 'run.phase', payload: { phase: 'done', status: 'running' } }]),
    ).rejects.toThrow('disk full');
    expect(lost).toHaveLength(1);
  });
});
