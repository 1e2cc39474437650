import { describe, expect, it } from 'vitest';
import type { WorkbenchEvent } from '@youyou/contracts';
import { ConversationStore } from '../src/conversation-state/index.ts';
import { eventFactory, queryOf } from './event-fixtures.ts';

function textOf(store: ConversationStore, index = -1): string {
  const run = store.getSnapshot().runs.at(index);
  return (run?.assistant.parts ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');
}

describe('ConversationStore', () => {
  it('streams a run from its events and ends with no run in flight', () => {
    const events = eventFactory();
    const store = new ConversationStore('c1');
    store.setQuery(queryOf([], 0));
    store.apply(events.created('r1', 'Hello'));
    store.apply(events.phase('r1'));
    store.apply(events.delta('r1', 'Hi '));
    expect(store.getSnapshot().activeRun?.run.id).toBe('r1');
    store.apply(events.delta('r1', 'there'));
    store.apply(events.completed('r1'));
    expect(textOf(store)).toBe('Hi there');
    expect(store.getSnapshot().activeRun).toBeUndefined();
    expect(store.getSnapshot().runs[0]?.assistant.status).toBe('complete');
  });

  it('drops repeated events and events of other conversations', () => {
    const events = eventFactory();
    const store = new ConversationStore('c1');
    store.setQuery(queryOf([], 0));
    const created = events.created('r1', 'Hello');
    const delta = events.delta('r1', 'once');
    for (const event of [created, delta, delta, created]) store.apply(event);
    store.apply({ ...events.delta('r1', 'foreign'), conversation_id: 'c2' } as WorkbenchEvent);
    expect(textOf(store)).toBe('once');
  });

  it('a Query that arrives mid-stream is joined with the newer live events, without duplicates', () => {
    const events = eventFactory();
    const live = [
      events.created('r1', 'Hello'),
      events.phase('r1'),
      events.delta('r1', 'ab'),
      events.delta('r1', 'cd'),
    ];
    const store = new ConversationStore('c1');
    store.setQuery(queryOf([], 0));
    for (const event of live) store.apply(event);
    // The Query reflects the first three events (seq 3): text 'ab'.
    const partial = new ConversationStore('c1');
    partial.setQuery(queryOf([], 0));
    for (const event of live.slice(0, 3)) partial.apply(event);
    const run = partial.getSnapshot().runs[0];
    if (run === undefined) throw new Error('no run');
    store.setQuery(queryOf([run.user, run.assistant], 3, { in_flight_run: null }));
    expect(textOf(store)).toBe('abcd');
    store.apply(events.delta('r1', 'ef'));
    expect(textOf(store)).toBe('abcdef');
  });

  it('a late, older Query does not roll the view back', () => {
    const events = eventFactory();
    const store = new ConversationStore('c1');
    store.setQuery(queryOf([], 5));
    store.setQuery(queryOf([], 2));
    expect(store.getSnapshot().lastSeq).toBe(5);
    expect(events.seq).toBe(0);
  });

  it('a run after an earlier run cuts the branch there (edit and resend)', () => {
    const events = eventFactory();
    const store = new ConversationStore('c1');
    store.setQuery(queryOf([], 0));
    for (const event of [
      events.created('r1', 'one'),
      events.completed('r1'),
      events.created('r2', 'two', 'r1'),
      events.completed('r2'),
    ]) {
      store.apply(event);
    }
    store.apply(events.created('r3', 'two, edited', 'r1'));
    expect(store.getSnapshot().runs.map((run) => run.run.id)).toEqual(['r1', 'r3']);
  });

  it('marks interrupted runs and tool calls with their results', () => {
    const events = eventFactory();
    const store = new ConversationStore('c1');
    store.setQuery(queryOf([], 0));
    for (const event of [
      events.created('r1', 'x'),
      events.thinking('r1', 'hm'),
      events.toolCall('r1', 'k'),
      events.toolResult('r1', 'k'),
      events.interrupted('r1'),
    ]) {
      store.apply(event);
    }
    const run = store.getSnapshot().runs[0];
    expect(run?.assistant.status).toBe('interrupted');
    expect(run?.assistant.parts.map((part) => `${part.type}:${part.status}`)).toEqual([
      'thinking:complete',
      'tool_call:complete',
      'tool_result:complete',
    ]);
  });

  it('keeps earlier pages loaded on scroll-up when a newer Query arrives', () => {
    const events = eventFactory();
    const build = new ConversationStore('c1');
    build.setQuery(queryOf([], 0));
    let previous: string | null = null;
    for (const id of ['r1', 'r2', 'r3']) {
      build.apply(events.created(id, id, previous));
      previous = id;
      build.apply(events.completed(id));
    }
    const [r1, r2, r3] = build.getSnapshot().runs;
    if (r1 === undefined || r2 === undefined || r3 === undefined) throw new Error('runs');
    const messages = (runs: (typeof r1)[]) => runs.flatMap((run) => [run.user, run.assistant]);
    const store = new ConversationStore('c1');
    store.setQuery(queryOf(messages([r3]), 6, { earlier_cursor: 'before-r3' }));
    expect(store.getSnapshot().earlierCursor).toBe('before-r3');
    store.prependPage(queryOf(messages([r1, r2]), 6));
    expect(store.getSnapshot().runs.map((run) => run.run.id)).toEqual(['r1', 'r2', 'r3']);
    expect(store.getSnapshot().earlierCursor).toBeUndefined();
    store.setQuery(queryOf(messages([r3]), 7, { earlier_cursor: 'before-r3' }));
    expect(store.getSnapshot().runs.map((run) => run.run.id)).toEqual(['r1', 'r2', 'r3']);
  });
});
