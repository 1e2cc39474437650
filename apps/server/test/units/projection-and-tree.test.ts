import { describe, expect, it } from 'vitest';
import { ConversationTree } from '../../src/conversations/index.ts';
import type { NewEvent, WorkbenchEvent } from '../../src/events/index.ts';
import { ConversationProjection, applyRunEvent } from '@youyou/contracts';
import { titleFromText } from '../../src/runs/index.ts';
import type { TreeRun } from '../../src/storage/index.ts';

let seq = 0;
function numbered(event: NewEvent): WorkbenchEvent {
  return {
    ...event,
    seq: ++seq,
    conversation_id: 'c',
    ts: '2026-01-01T00:00:00.000Z',
    v: 1,
  } as WorkbenchEvent;
}

function created(runId: string, text = 'question'): WorkbenchEvent {
  return numbered({
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
  });
}

describe('the run projection', () => {
  it('replaying events twice, or out of their run, changes nothing', () => {
    const events = [
      created('r1'),
      numbered({ run_id: 'r1', type: 'run.phase', payload: { phase: 'responding', status: 'running' } }),
      numbered({ run_id: 'r1', type: 'message.delta', payload: { message_id: 'r1', text: 'Hi' } }),
      numbered({ run_id: 'r2', type: 'message.delta', payload: { message_id: 'r2', text: 'other run' } }),
      numbered({ run_id: 'r1', type: 'message.delta', payload: { message_id: 'r1', text: ' there' } }),
    ];
    let once: ReturnType<typeof applyRunEvent>;
    for (const event of events) once = applyRunEvent(once, event);
    let twice: ReturnType<typeof applyRunEvent>;
    for (const event of [...events, ...events]) twice = applyRunEvent(twice, event);
    expect(twice).toEqual(once);
    expect(once?.assistant.parts).toEqual([{ type: 'text', text: 'Hi there', status: 'streaming' }]);
    expect(once?.assistant.status).toBe('streaming');
  });

  it('a run that ends early marks its open parts incomplete; a fatal error becomes the last part', () => {
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
    const mirror = new ConversationProjection();
    mirror.apply(created('r4'));
    mirror.apply({
      ...numbered({ run_id: 'r4', type: 'run.phase', payload: { phase: 'acting', status: 'running' } }),
      type: 'plan.update',
    } as unknown as WorkbenchEvent);
    expect(mirror.run('r4')?.run.phase).toBe('pending');
  });
});

describe('the conversation tree', () => {
  const run = (id: string, previous: string | null, user: string, at: number): TreeRun => ({
    id,
    previous_run_id: previous,
    user_message_id: user,
    status: 'completed',
    created_at: at,
  });
  const tree = new ConversationTree([
    run('a', null, 'ua', 1),
    run('b', 'a', 'ub', 2),
    run('c', 'b', 'uc', 3),
    run('b2', 'a', 'ub2', 4),
    run('b3', 'a', 'ub', 5),
    run('d', 'c', 'ud', 6),
  ]);

  it('walks a branch from its leaf, and lists edits and regenerations as siblings', () => {
    expect(tree.path('d').map((entry) => entry.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(tree.userSiblings(tree.run('b') as TreeRun)).toEqual({ ids: ['ub', 'ub2'], index: 0 });
    expect(tree.assistantSiblings(tree.run('b3') as TreeRun)).toEqual({ ids: ['b', 'b3'], index: 1 });
    expect(tree.path(null)).toEqual([]);
  });

  it('a branch switch lands on the newest leaf below', () => {
    expect(tree.latestLeaf(tree.runsOfUserMessage('ub'))?.id).toBe('d');
    expect(tree.latestLeaf([tree.run('b2') as TreeRun])?.id).toBe('b2');
  });
});

describe('automatic titles', () => {
  it('take the first line, fold whitespace, and cut long text at a word', () => {
    expect(titleFromText('\n  Why does   the parser\nfail?')).toBe('Why does the parser');
    expect(titleFromText('')).toBe('');
    const long = titleFromText('word '.repeat(40));
    expect(long.length).toBeLessThanOrEqual(81);
    expect(long.endsWith('…')).toBe(true);
  });
});
