// @vitest-environment happy-dom
import { QueryClient } from '@tanstack/react-query';
import type { WorkbenchEvent } from '@youyou/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LiveConversations } from '../src/conversation-state/index.ts';
import { DEFAULT_LAYOUT, useLayout } from '../src/layout/index.ts';
import { useNavigation } from '../src/navigation/index.ts';
import { planboardKey, syncPlanboards } from '../src/workbench/index.ts';

/** A live connection that the test feeds events, with the conversation it has in focus. */
function fakeLive() {
  let listener: ((conversationId: string, event: WorkbenchEvent) => void) | undefined;
  const live = {
    focused: undefined as string | undefined,
    onEvent(next: typeof listener) {
      listener = next;
      return () => {
        listener = undefined;
      };
    },
  };
  const emitPlan = (conversationId: string, version: number) =>
    listener?.(conversationId, {
      seq: version,
      run_id: 'r1',
      conversation_id: conversationId,
      ts: new Date().toISOString(),
      v: 1,
      type: 'plan.update',
      payload: { steps: [{ id: 'a', title: 'Read the code', status: 'in_progress' }], version },
    } as WorkbenchEvent);
  return { live, asLive: live as unknown as LiveConversations, emitPlan };
}

describe('the Plan tab opens with a conversation’s first plan', () => {
  let stop: (() => void) | undefined;
  beforeEach(() => {
    useLayout.setState(DEFAULT_LAYOUT);
    useNavigation.setState({ conversationId: undefined });
  });
  afterEach(() => stop?.());

  it('at once for the conversation on screen', () => {
    const { live, asLive, emitPlan } = fakeLive();
    const queryClient = new QueryClient();
    stop = syncPlanboards(asLive, queryClient);
    live.focused = 'c1';
    emitPlan('c1', 1);
    expect(useLayout.getState().activeTab).toBe('plan');
    expect(queryClient.getQueryData(planboardKey('c1'))).toMatchObject({ plan: { version: 1 } });
  });

  it('when a new conversation whose first answer planned before the view switched to it comes on screen', () => {
    const { asLive, emitPlan } = fakeLive();
    stop = syncPlanboards(asLive, new QueryClient());
    emitPlan('c2', 1);
    expect(useLayout.getState().activeTab).not.toBe('plan');
    useNavigation.getState().openConversation('c2');
    expect(useLayout.getState().activeTab).toBe('plan');
    // Once only: coming back later keeps the tab the person chose.
    useLayout.getState().setActiveTab('artifacts');
    useNavigation.getState().openConversation(undefined);
    useNavigation.getState().openConversation('c2');
    expect(useLayout.getState().activeTab).toBe('artifacts');
  });

  it('when the view has switched to the conversation but the live stream has not refocused yet', () => {
    const { asLive, emitPlan } = fakeLive();
    stop = syncPlanboards(asLive, new QueryClient());
    useNavigation.getState().openConversation('c4');
    emitPlan('c4', 1);
    expect(useLayout.getState().activeTab).toBe('plan');
  });

  it('even when the planboard was fetched with that plan before its event arrived', () => {
    const { live, asLive, emitPlan } = fakeLive();
    const queryClient = new QueryClient();
    queryClient.setQueryData(planboardKey('c3'), {
      plan: { steps: [], version: 1 },
      todos: { items: [], version: 0 },
    });
    stop = syncPlanboards(asLive, queryClient);
    live.focused = 'c3';
    emitPlan('c3', 1);
    expect(useLayout.getState().activeTab).toBe('plan');
  });
});
