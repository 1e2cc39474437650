// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MessagePart } from '@youyou/contracts';
import { useConversationUi } from '../src/conversation/index.ts';
import { AssistantMessage } from '../src/conversation/assistant-message.tsx';
import type { RunView } from '../src/conversation-state/index.ts';
import { usePreferences } from '../src/preferences/index.ts';

afterEach(cleanup);
beforeEach(() => {
  usePreferences.getState().set({ fold: 'fold', language: 'en' });
  useConversationUi.setState({ toggledRuns: new Set() });
});

const call = (id: string, status: 'complete' | 'running' = 'complete'): MessagePart => ({
  type: 'tool_call',
  call_id: id,
  tool_name: `tool_${id}`,
  arguments: '{"path":"a.txt"}',
  status,
});
const result = (id: string): MessagePart => ({
  type: 'tool_result',
  call_id: id,
  tool_name: `tool_${id}`,
  output: `output ${id}`,
  is_error: false,
  duration_ms: 40,
  status: 'complete',
});

function runWith(parts: MessagePart[], status: RunView['assistant']['status'] = 'complete'): RunView {
  return {
    run: {
      id: 'r1',
      conversation_id: 'c1',
      parent_run_id: null,
      previous_run_id: null,
      user_message_id: 'u1',
      kind: 'conversation',
      status: status === 'complete' ? 'completed' : status === 'streaming' ? 'running' : 'interrupted',
      phase: 'done',
      model_id: null,
      created_at: '',
    },
    user: {
      id: 'u1',
      role: 'user',
      run_id: 'r1',
      parent_id: null,
      status: 'complete',
      parts: [],
      created_at: '',
    },
    assistant: {
      id: 'a1',
      role: 'assistant',
      run_id: 'r1',
      parent_id: 'u1',
      status,
      parts,
      created_at: '',
      usage: { input_tokens: 1, output_tokens: 1, tool_calls: 3, model_calls: 2, duration_ms: 12_200 },
    },
    last_seq: 9,
  };
}

const finished = [
  { type: 'thinking', text: 'Let me look.', status: 'complete' } as MessagePart,
  call('1'),
  result('1'),
  call('2'),
  result('2'),
  call('3'),
  result('3'),
  { type: 'text', text: 'The answer is **42**.', status: 'complete' } as MessagePart,
];

describe('AssistantMessage', () => {
  it('folds reasoning and tool calls into one summary line after the run, and expands on click', () => {
    render(
      <AssistantMessage
        run={runWith(finished)}
        isLast
        busy={false}
        onRegenerate={vi.fn()}
        onSelectBranch={vi.fn()}
      />,
    );
    const summary = screen.getByTestId('process-summary');
    expect(summary.textContent).toBe('Thought for 12 s · 3 tools');
    expect(summary.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryAllByTestId('tool-card')).toHaveLength(0);
    expect(screen.getByText('42').tagName).toBe('STRONG');
    fireEvent.click(summary);
    expect(screen.getAllByTestId('tool-card')).toHaveLength(3);
    expect(screen.getByText('Let me look.')).toBeTruthy();
  });

  it('keeps the steps open when the preference says so', () => {
    usePreferences.getState().set({ fold: 'keep' });
    render(
      <AssistantMessage
        run={runWith(finished)}
        isLast
        busy={false}
        onRegenerate={vi.fn()}
        onSelectBranch={vi.fn()}
      />,
    );
    expect(screen.getAllByTestId('tool-card')).toHaveLength(3);
  });

  it('shows reasoning and tool calls live while the run streams', () => {
    const live = [
      { type: 'thinking', text: 'Thinking hard', status: 'streaming' } as MessagePart,
      call('1', 'running'),
    ];
    render(
      <AssistantMessage
        run={runWith(live, 'streaming')}
        isLast
        busy
        onRegenerate={vi.fn()}
        onSelectBranch={vi.fn()}
      />,
    );
    expect(screen.queryByTestId('process-summary')).toBeNull();
    expect(screen.getByText('Thinking hard')).toBeTruthy();
    expect(screen.getByTestId('tool-card').textContent).toContain('Running');
  });

  it('a tool card shows arguments and result on demand', () => {
    usePreferences.getState().set({ fold: 'keep' });
    render(
      <AssistantMessage
        run={runWith([call('1'), result('1'), { type: 'text', text: 'ok', status: 'complete' }])}
        isLast
        busy={false}
        onRegenerate={vi.fn()}
        onSelectBranch={vi.fn()}
      />,
    );
    const card = screen.getByTestId('tool-card');
    expect(card.textContent).toContain('tool_1');
    expect(card.textContent).toContain('40 ms');
    fireEvent.click(card.querySelector('button') as HTMLButtonElement);
    expect(card.textContent).toContain('"path": "a.txt"');
    expect(card.textContent).toContain('output 1');
  });

  it('marks an interrupted answer and offers to resend it', () => {
    const onRegenerate = vi.fn();
    render(
      <AssistantMessage
        run={runWith([{ type: 'text', text: 'Half an ans', status: 'incomplete' }], 'interrupted')}
        isLast
        busy={false}
        onRegenerate={onRegenerate}
        onSelectBranch={vi.fn()}
      />,
    );
    expect(screen.getByText(/Interrupted/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Resend/ }));
    expect(onRegenerate).toHaveBeenCalledWith('a1');
  });

  it('renders error parts visibly', () => {
    render(
      <AssistantMessage
        run={runWith(
          [
            {
              type: 'error',
              error: { code: 'PROVIDER_ERROR', message: 'The model is overloaded.', retryable: true },
              fatal: true,
              status: 'complete',
            },
          ],
          'failed' as never,
        )}
        isLast
        busy={false}
        onRegenerate={vi.fn()}
        onSelectBranch={vi.fn()}
      />,
    );
    expect(screen.getByRole('alert').textContent).toContain('PROVIDER_ERROR');
    expect(screen.getByRole('alert').textContent).toContain('The model is overloaded.');
  });

  it('a provider retry is one line that counts the retries, not an error card', () => {
    const retry = (attempt: number): MessagePart => ({
      type: 'error',
      error: {
        code: 'PROVIDER_ERROR',
        message: 'HTTP 503',
        retryable: true,
        details: { attempt, retryInMs: 500, maxAttempts: 3 },
      },
      fatal: false,
      status: 'complete',
    });
    usePreferences.getState().set({ fold: 'keep' });
    render(
      <AssistantMessage
        run={runWith([retry(1), retry(2)], 'streaming')}
        isLast
        busy
        onRegenerate={vi.fn()}
        onSelectBranch={vi.fn()}
      />,
    );
    expect(screen.queryByRole('alert')).toBeNull();
    const lines = screen.getAllByTestId('retry-line').map((line) => line.textContent);
    expect(lines).toEqual(['The provider did not answer; retrying 2/3…']);
  });

  it('speaks Chinese when the language is 简体中文', () => {
    usePreferences.getState().set({ language: 'zh-CN' });
    render(
      <AssistantMessage
        run={runWith(finished)}
        isLast
        busy={false}
        onRegenerate={vi.fn()}
        onSelectBranch={vi.fn()}
      />,
    );
    expect(screen.getByTestId('process-summary').textContent).toBe('思考了 12 秒 · 调用 3 个工具');
  });

  it.each([
    ['length', 'Cut off at the token limit'],
    ['content_filter', 'Blocked by the provider’s filter'],
    ['refusal', 'The model refused'],
  ] as const)('a completed answer that ended with %s says so at its end', (reason, notice) => {
    const run = runWith([
      { type: 'text', text: 'I cannot help with that.', status: 'complete' } as MessagePart,
    ]);
    render(
      <AssistantMessage
        run={{ ...run, assistant: { ...run.assistant, finish_reason: reason } }}
        isLast
        busy={false}
        onRegenerate={vi.fn()}
        onSelectBranch={vi.fn()}
      />,
    );
    expect(screen.getByTestId('finish-notice').textContent).toContain(notice);
    const refusal = screen.queryByTestId('refusal');
    if (reason === 'refusal') expect(refusal?.textContent).toContain('I cannot help with that.');
    else expect(refusal).toBeNull();
  });

  it('an answer that ended normally has no notice', () => {
    const run = runWith([{ type: 'text', text: 'Done.', status: 'complete' } as MessagePart]);
    render(
      <AssistantMessage
        run={{ ...run, assistant: { ...run.assistant, finish_reason: 'stop' } }}
        isLast
        busy={false}
        onRegenerate={vi.fn()}
        onSelectBranch={vi.fn()}
      />,
    );
    expect(screen.queryByTestId('finish-notice')).toBeNull();
  });

  describe('the usage line of a stopped run', () => {
    const withUsage = (
      status: 'cancelled' | 'interrupted',
      usage: RunView['assistant']['usage'],
    ): RunView => {
      const run = runWith([{ type: 'text', text: 'Half an ans', status: 'incomplete' }], status);
      return { ...run, assistant: { ...run.assistant, model_id: 'fake/echo', usage } };
    };
    const usageLine = (run: RunView): string | null | undefined => {
      const { container } = render(
        <AssistantMessage run={run} isLast busy={false} onRegenerate={vi.fn()} onSelectBranch={vi.fn()} />,
      );
      return container.querySelector('.message-meta')?.textContent;
    };

    it('shows a dash, not 0 in / 0 out, when a cancelled run recorded no tokens', () => {
      const line = usageLine(
        withUsage('cancelled', {
          input_tokens: 0,
          output_tokens: 0,
          tool_calls: 0,
          model_calls: 0,
          duration_ms: 2_400,
        }),
      );
      expect(line).toBe('echo · 2.4 s · — tokens');
    });

    it('shows only a dash when an interrupted run recorded neither tokens nor time', () => {
      const line = usageLine(
        withUsage('interrupted', {
          input_tokens: 0,
          output_tokens: 0,
          tool_calls: 0,
          model_calls: 0,
          duration_ms: 0,
        }),
      );
      expect(line).toBe('echo · —');
    });

    it('shows the real counts when a stopped run recorded them', () => {
      const line = usageLine(
        withUsage('cancelled', {
          input_tokens: 120,
          output_tokens: 7,
          tool_calls: 0,
          model_calls: 1,
          duration_ms: 1_000,
        }),
      );
      expect(line).toBe('echo · 1.0 s · 120 in / 7 out tokens');
    });
  });
});
