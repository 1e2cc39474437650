import { describe, expect, it } from 'vitest';
import {
  ConversationProjection,
  applyRunEvent,
  createRunProjection,
  isSettled,
  type EventOfType,
  type RunProjection,
  type WorkbenchEvent,
} from '../src/index.ts';
import { eventLog } from './fixtures.ts';

describe('the run projection', () => {
  it('replaying events twice, or out of their run, changes nothing', () => {
    const { numbered, created } = eventLog();
    const events = [
      created('r1'),
      numbered({ run_id: 'r1', type: 'run.phase', payload: { phase: 'responding', status: 'running' } }),
      numbered({ run_id: 'r1', type: 'message.delta', payload: { message_id: 'r1', text: 'Hi' } }),
      numbered({ run_id: 'r2', type: 'message.delta', payload: { message_id: 'r2', text: 'other run' } }),
      numbered({ run_id: 'r1', type: 'message.delta', payload: { message_id: 'r1', text: ' there' } }),
    ];
    let once: RunProjection | undefined;
    for (const event of events) once = applyRunEvent(once, event);
    let twice: RunProjection | undefined;
    for (const event of [...events, ...events]) twice = applyRunEvent(twice, event);
    expect(twice).toEqual(once);
    expect(once?.assistant.parts).toEqual([{ type: 'text', text: 'Hi there', status: 'streaming' }]);
    expect(once?.assistant.status).toBe('streaming');
  });

  it('never changes a projection it was given: a change is a new object, no change the same one', () => {
    const { numbered, created } = eventLog();
    const start = createRunProjection(created('r1') as EventOfType<'run.created'>);
    const frozen = structuredClone(start);
    const delta = numbered({
      run_id: 'r1',
      type: 'message.delta',
      payload: { message_id: 'r1', text: 'Hi' },
    });
    const after = applyRunEvent(start, delta);
    expect(after).not.toBe(start);
    expect(start).toEqual(frozen);
    expect(applyRunEvent(after, delta)).toBe(after);
  });

  it('keeps fields a caller added to its projection', () => {
    const { numbered, created } = eventLog();
    const start = { ...createRunProjection(created('r1') as EventOfType<'run.created'>), seenAt: 42 };
    const after = applyRunEvent(
      start,
      numbered({ run_id: 'r1', type: 'thinking.delta', payload: { message_id: 'r1', text: 'hmm' } }),
    );
    expect(after.seenAt).toBe(42);
    expect(after.assistant.status).toBe('streaming');
  });

  it('a tool result completes its call; a failed one marks it failed', () => {
    const { numbered, created } = eventLog();
    let projection = applyRunEvent(undefined, created('r1'));
    for (const event of [
      numbered({ run_id: 'r1', type: 'message.delta', payload: { message_id: 'r1', text: 'Looking' } }),
      numbered({
        run_id: 'r1',
        type: 'tool.call',
        payload: { message_id: 'r1', call_id: 'k1', tool_name: 'grep', arguments: '{}', tool_run_id: 't1' },
      }),
      numbered({
        run_id: 'r1',
        type: 'tool.result',
        payload: {
          message_id: 'r1',
          call_id: 'k1',
          tool_name: 'grep',
          output: 'no such file',
          success: false,
          duration_ms: 3,
          tool_run_id: 't1',
        },
      }),
      numbered({
        run_id: 'r1',
        type: 'run.completed',
        payload: {
          message_id: 'r1',
          usage: { input_tokens: 1, output_tokens: 2, tool_calls: 1, model_calls: 2, duration_ms: 9 },
        },
      }),
    ]) {
      projection = applyRunEvent(projection, event);
    }
    expect(projection?.assistant.parts.map((part) => [part.type, part.status])).toEqual([
      ['text', 'complete'],
      ['tool_call', 'failed'],
      ['tool_result', 'complete'],
    ]);
    expect(projection?.run).toMatchObject({ status: 'completed', phase: 'done' });
    expect(projection?.assistant.usage?.duration_ms).toBe(9);
    expect(projection !== undefined && isSettled(projection)).toBe(true);
  });

  it('a run that ends early marks its open parts incomplete; a fatal error becomes the last part', () => {
    const { numbered, created } = eventLog();
    const mirror = new ConversationProjection();
    mirror.apply(created('r3'));
    mirror.apply(
      numbered({ run_id: 'r3', type: 'thinking.delta', payload: { message_id: 'r3', text: 'pondering' } }),
    );
    mirror.apply(
      numbered({
        run_id: 'r3',
        type: 'tool.call',
        payload: { message_id: 'r3', call_id: 'k', tool_name: 't', arguments: '{}', tool_run_id: 'tr' },
      }),
    );
    mirror.apply(
      numbered({
        run_id: 'r3',
        type: 'run.failed',
        payload: { message_id: 'r3', error: { code: 'PROVIDER_ERROR', message: 'boom', retryable: true } },
      }),
    );
    mirror.apply(numbered({ run_id: null, type: 'conversation.updated', payload: { title: 'Renamed' } }));
    const [, assistant] = mirror.messages();
    expect(assistant?.status).toBe('failed');
    expect(assistant?.parts.map((part) => [part.type, part.status])).toEqual([
      ['thinking', 'complete'],
      ['tool_call', 'incomplete'],
      ['error', 'complete'],
    ]);
    expect(mirror.title).toBe('Renamed');
  });

  it('unknown event types are ignored', () => {
    const { numbered, created } = eventLog();
    const mirror = new ConversationProjection();
    mirror.apply(created('r4'));
    const before = mirror.run('r4');
    mirror.apply({
      ...numbered({ run_id: 'r4', type: 'run.phase', payload: { phase: 'acting', status: 'running' } }),
      type: 'hologram.shown',
    } as unknown as WorkbenchEvent);
    expect(mirror.run('r4')).toBe(before);
    expect(mirror.run('r4')?.run.phase).toBe('pending');
  });
});
