// @vitest-environment happy-dom
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useMessageFocus, useNavigation } from '../src/navigation/index.ts';
import { ProjectNav } from '../src/project-nav/index.ts';
import { ServicesProvider } from '../src/services/index.ts';
import { fakeApi, testServices } from './fake-api.ts';

afterEach(cleanup);

describe('sidebar message search', () => {
  it('typing in the sidebar search lists messages whose text matches, with the match marked; a hit opens its conversation scrolled to the message', async () => {
    const searchMessages = vi.fn(() =>
      Promise.resolve({
        hits: [
          {
            conversation_id: 'c1',
            conversation_title: 'Birds',
            message_id: 'm1',
            role: 'assistant' as const,
            snippet: 'The pelican invoice is filed.',
            highlights: [{ start: 4, end: 11 }],
            created_at: '2026-01-01T00:00:00.000Z',
          },
        ],
      }),
    );
    const api = fakeApi({
      listProjects: () => Promise.resolve([]),
      listConversations: () => Promise.resolve({ conversations: [] }),
      searchMessages,
    });
    const services = testServices(api);
    render(
      <QueryClientProvider client={services.queryClient}>
        <ServicesProvider services={services}>
          <ProjectNav collapsed={false} />
        </ServicesProvider>
      </QueryClientProvider>,
    );
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search conversations' }), {
      target: { value: 'pelican' },
    });
    const messages = await screen.findByRole('region', { name: 'Messages' });
    expect(searchMessages).toHaveBeenCalledWith('pelican', { limit: 20 });
    expect(within(messages).getByText('pelican').tagName).toBe('MARK');
    fireEvent.click(within(messages).getByRole('link'));
    expect(useNavigation.getState().conversationId).toBe('c1');
    expect(useMessageFocus.getState().target).toEqual({ conversationId: 'c1', messageId: 'm1' });
  });
});
