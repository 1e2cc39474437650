import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { EventStreamOptions } from '../src/api/index.ts';
import type { WorkbenchEvent } from '@youyou/contracts';
import { LiveConversations, conversationKey } from '../src/conversation-state/index.ts';
import { eventFactory, queryOf } from './event-fixtures.ts';
import { fakeApi } from './fake-api.ts';

function harness() {
  const streams: { options: EventStreamOptions; closed: boolean }[] = [];
  const marked: [string, number][] = [];
  const queryClient = new QueryClient();
  const live = new LiveConversations({
    api: fakeApi({
      markRead: (id, seq) => {
        marked.push([id, seq]);
        return Promise.resolve();
      },
    }),
    queryClient,
    openStream: (options) => {
      const entry = { options, closed: false };
      streams.push(entry);
      return {
        lastSeq: options.after,
        close: () => {
          entry.closed = true;
        },
      };
    },
  });
  const open = (id: string) =>
    streams.filter((stream) => stream.options.conversationId === id && !stream.closed);
  const emit = (id: string, event: WorkbenchEvent) => open(id)[0]?.options.onEvent(event);
  return { live, queryClient, streams, open, emit, marked };
}

describe('LiveConversations', () => {
  it('opens the stream of the shown conversation after its Query, resuming after the Query seq', () => {
    const { live, queryClient, open } = harness();
    live.focus('c1');
    expect(open('c1')).toHaveLength(0);
    queryClient.setQueryData(conversationKey('c1'), queryOf([], 7));
    expect(open('c1')).toHaveLength(1);
    expect(open('c1')[0]?.options.after).toBe(7);
  });

  it('keeps a running conversation streaming in the background and closes it when its run ends', () => {
    const { live, queryClient, open, emit } = harness();
    const events = eventFactory('c1');
    live.focus('c1');
    queryClient.setQueryData(conversationKey('c1'), queryOf([], 0));
    emit('c1', events.created('r1', 'hello'));
    expect(live.getRunning().has('c1')).toBe(true);
    live.focus('c2');
    expect(open('c1')).toHaveLength(1);
    emit('c1', events.delta('r1', 'still '));
    emit('c1', events.delta('r1', 'coming'));
    expect(live.store('c1').getSnapshot().runs[0]?.assistant.parts).toEqual([
      { type: 'text', text: 'still coming', status: 'streaming' },
    ]);
    emit('c1', events.completed('r1'));
    expect(live.getRunning().has('c1')).toBe(false);
    expect(open('c1')).toHaveLength(0);
  });

  it('closes the stream of an idle conversation when another is shown', () => {
    const { live, queryClient, open } = harness();
    live.focus('c1');
    queryClient.setQueryData(conversationKey('c1'), queryOf([], 3));
    live.focus('c2');
    expect(open('c1')).toHaveLength(0);
  });

  it('a run ending asks for the Query again (the authority the view converges on)', async () => {
    const { live, queryClient, emit } = harness();
    const events = eventFactory('c1');
    live.focus('c1');
    queryClient.setQueryData(conversationKey('c1'), queryOf([], 0));
    emit('c1', events.created('r1', 'hi'));
    emit('c1', events.completed('r1'));
    await Promise.resolve();
    expect(queryClient.getQueryState(conversationKey('c1'))?.isInvalidated).toBe(true);
  });

  it('moves the read cursor once nothing streams into the shown conversation, not on every delta', async () => {
    const { live, queryClient, emit, marked } = harness();
    const events = eventFactory('c1');
    live.focus('c1');
    queryClient.setQueryData(conversationKey('c1'), queryOf([], 0));
    emit('c1', events.created('r1', 'hi'));
    emit('c1', events.delta('r1', 'a'));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(marked).toEqual([]);
    emit('c1', events.completed('r1'));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(marked).toEqual([['c1', 3]]);
  });

  it('watches conversations the listing says are running, from the listing seq, until their run ends', () => {
    const { live, queryClient, open, emit } = harness();
    const summary = { ...queryOf([], 41).conversation, id: 'c9', last_seq: 41, in_flight_run_id: 'r9' };
    queryClient.setQueryData(['conversations', { q: '' }], {
      pages: [{ conversations: [summary] }],
      pageParams: [undefined],
    });
    expect(live.getRunning().has('c9')).toBe(true);
    expect(open('c9')[0]?.options.after).toBe(41);
    const completed = { ...eventFactory('c9').completed('r9'), seq: 42 };
    emit('c9', completed);
    expect(live.getRunning().has('c9')).toBe(false);
    expect(open('c9')).toHaveLength(0);
  });
});
