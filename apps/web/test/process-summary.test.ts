import { describe, expect, it } from 'vitest';
import type { MessagePart } from '@youyou/contracts';
import {
  collapseRetryNotices,
  processSummary,
  splitProcessParts,
  type RunView,
} from '../src/conversation-state/index.ts';

const thinking: MessagePart = { type: 'thinking', text: 'hmm', status: 'complete' };
const call = (id: string): MessagePart => ({
  type: 'tool_call',
  call_id: id,
  tool_name: 'grep',
  arguments: '{}',
  status: 'complete',
});
const result = (id: string, error = false): MessagePart => ({
  type: 'tool_result',
  call_id: id,
  tool_name: 'grep',
  output: 'x',
  is_error: error,
  duration_ms: 5,
  status: 'complete',
});
const text = (value: string): MessagePart => ({ type: 'text', text: value, status: 'complete' });

function run(parts: MessagePart[], durationMs?: number): RunView {
  return {
    run: {
      id: 'r1',
      conversation_id: 'c1',
      parent_run_id: null,
      previous_run_id: null,
      user_message_id: 'u',
      kind: 'conversation',
      status: 'completed',
      phase: 'done',
      model_id: null,
      created_at: '',
    },
    user: {
      id: 'u',
      role: 'user',
      run_id: 'r1',
      parent_id: null,
      status: 'complete',
      parts: [],
      created_at: '',
    },
    assistant: {
      id: 'a',
      role: 'assistant',
      run_id: 'r1',
      parent_id: 'u',
      status: 'complete',
      parts,
      created_at: '',
      ...(durationMs === undefined
        ? {}
        : {
            usage: {
              input_tokens: 1,
              output_tokens: 1,
              tool_calls: 0,
              model_calls: 1,
              duration_ms: durationMs,
            },
          }),
    },
    last_seq: 1,
  };
}

describe('folding process parts', () => {
  it('everything up to the last reasoning or tool part is process; the rest is the answer', () => {
    const parts = [
      thinking,
      call('1'),
      result('1'),
      text('looking further'),
      call('2'),
      result('2'),
      text('Done.'),
    ];
    const { process, answer } = splitProcessParts(parts);
    expect(process).toHaveLength(6);
    expect(answer).toEqual([text('Done.')]);
  });

  it('errors are never folded away', () => {
    const error: MessagePart = {
      type: 'error',
      error: { code: 'X', message: 'bad', retryable: false },
      fatal: false,
      status: 'complete',
    };
    const { process, answer } = splitProcessParts([call('1'), error, result('1'), text('ok')]);
    expect(process.map((part) => part.type)).toEqual(['tool_call', 'tool_result']);
    expect(answer.map((part) => part.type)).toEqual(['error', 'text']);
  });

  it('a plain answer has no process', () => {
    expect(splitProcessParts([text('hi')]).process).toEqual([]);
  });

  it('summary counts tools and failures and takes the time from usage', () => {
    const parts = [
      thinking,
      call('1'),
      result('1'),
      call('2'),
      result('2', true),
      call('3'),
      result('3'),
      text('x'),
    ];
    expect(processSummary(run(parts, 12_400), splitProcessParts(parts).process)).toEqual({
      seconds: 12,
      thought: true,
      tools: 3,
      failedTools: 1,
    });
  });

  it('live thinking time wins when the client saw it and no tools ran', () => {
    const view = { ...run([thinking, text('x')], 30_000), startedAt: 1000, thinkingEndedAt: 5200 };
    expect(processSummary(view, [thinking]).seconds).toBe(4);
  });
});

const retry = (attempt: number): MessagePart => ({
  type: 'error',
  error: {
    code: 'PROVIDER_ERROR',
    message: 'HTTP 503',
    retryable: true,
    details: { attempt, retryInMs: 500 },
  },
  fatal: false,
  status: 'complete',
});
const finalError: MessagePart = {
  type: 'error',
  error: { code: 'PROVIDER_ERROR', message: 'gave up after 3 attempts', retryable: true },
  fatal: true,
  status: 'complete',
};

describe('provider retries in an answer', () => {
  it('consecutive retry notices show as one line: the newest', () => {
    expect(collapseRetryNotices([retry(1), retry(2), text('hello')])).toEqual([retry(2), text('hello')]);
  });

  it('a run that failed for good shows one error card and no retry lines', () => {
    expect(collapseRetryNotices([retry(1), retry(2), finalError])).toEqual([finalError]);
  });

  it('parts without retries are returned as they are', () => {
    const parts = [thinking, text('a')];
    expect(collapseRetryNotices(parts)).toBe(parts);
  });
});

describe('cards when the process folds', () => {
  it('a card a tool posted stays in view, before the tool result that follows it', () => {
    const card: MessagePart = {
      type: 'card',
      card_id: 'k1',
      source: 'builtin',
      schema: { version: 1, root: { component: 'Text', text: 'Sunny' } },
      status: 'complete',
    };
    const { process, answer } = splitProcessParts([call('a'), card, result('a'), text('Done.')]);
    expect(process).toEqual([call('a'), result('a')]);
    expect(answer).toEqual([card, text('Done.')]);
  });
});
