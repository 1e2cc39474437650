import type { ResolvedFakeReply, FakeStep, FakeStreamReply, RecordedRequest } from './fake-script.ts';
import { estimateTokens, fakeRequestId, splitText, totalsOf } from './wire-format.ts';
import type { WireFormat, WireFrame, WireResponse } from './wire-format.ts';

type Usage = Extract<FakeStep, { type: 'usage' }>;
type BlockKind = 'text' | 'thinking';

function errorBody(type: string, message: string): unknown {
  return { type: 'error', error: { type, message }, request_id: 'req_fake' };
}

function stopReasonOf(reply: FakeStreamReply, usedTools: boolean, refused: boolean): string {
  const finishReason = reply.finishReason ?? (usedTools ? 'tool_calls' : 'stop');
  if (finishReason === 'tool_calls') return 'tool_use';
  if (finishReason === 'length') return 'max_tokens';
  return refused ? 'refusal' : 'end_turn';
}

/** Output usage, with thinking counted apart as `output_tokens_details.thinking_tokens` when scripted. */
function outputUsage(usage: Usage | undefined, outputText: string): Record<string, unknown> {
  return {
    output_tokens: usage?.outputTokens ?? estimateTokens(outputText),
    ...(usage?.reasoningTokens === undefined
      ? {}
      : { output_tokens_details: { thinking_tokens: usage.reasoningTokens } }),
  };
}

function event(type: string, payload: Record<string, unknown>): WireFrame {
  return { kind: 'data', text: `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n` };
}

/**
 * The Messages API streaming format (Anthropic API reference, "Streaming Messages"): named
 * events `message_start`, `content_block_start` / `content_block_delta` / `content_block_stop`
 * per block (`text_delta`, `thinking_delta` then `signature_delta`, `input_json_delta`),
 * `message_delta` with the stop reason and cumulative output usage, `message_stop`; `ping`s
 * and `error` events may appear anywhere.
 *
 * @example
 * await startFakeServer(anthropicWire, { script: [fakeTextReply('Hi')] }); // what startFakeAnthropic does
 */
export const anthropicWire: WireFormat = {
  name: 'anthropic',
  basePath: '',
  chatPath: '/v1/messages',
  modelsPath: '/v1/models',

  isAuthorized: (headers, apiKey) => headers['x-api-key'] === apiKey,

  renderStream(reply: FakeStreamReply, request: RecordedRequest, sequence: number): WireFrame[] {
    const body =
      typeof request.body === 'object' && request.body !== null
        ? (request.body as Record<string, unknown>)
        : {};
    const model = typeof body['model'] === 'string' ? body['model'] : 'fake-model';
    const usage = reply.steps.find((step): step is Usage => step.type === 'usage');
    const frames: WireFrame[] = [
      event('message_start', {
        message: {
          id: `msg_fake${sequence}`,
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: {
            input_tokens: usage?.inputTokens ?? estimateTokens(body['messages']),
            cache_creation_input_tokens: usage?.cacheWriteTokens ?? 0,
            cache_read_input_tokens: usage?.cachedInputTokens ?? 0,
            output_tokens: 1,
          },
        },
      }),
      event('ping', {}),
    ];
    let index = -1;
    let open: BlockKind | undefined;
    let usedTools = false;
    let refused = false;
    let outputText = '';
    const close = (): void => {
      if (open === 'thinking') {
        frames.push(
          event('content_block_delta', {
            index,
            delta: {
              type: 'signature_delta',
              signature: Buffer.from(`fake-signature-${sequence}-${index}`).toString('base64'),
            },
          }),
        );
      }
      if (open !== undefined) frames.push(event('content_block_stop', { index }));
      open = undefined;
    };
    const openBlock = (kind: BlockKind): void => {
      if (open === kind) return;
      close();
      index += 1;
      open = kind;
      const block =
        kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' };
      frames.push(event('content_block_start', { index, content_block: block }));
    };
    for (const step of reply.steps) {
      if (reply.stepDelayMs !== undefined && reply.stepDelayMs > 0)
        frames.push({ kind: 'delay', ms: reply.stepDelayMs });
      switch (step.type) {
        case 'refusal':
          refused = true;
          openBlock('text');
          outputText += step.text;
          frames.push(
            event('content_block_delta', { index, delta: { type: 'text_delta', text: step.text } }),
          );
          break;
        case 'text':
          openBlock('text');
          outputText += step.text;
          frames.push(
            event('content_block_delta', { index, delta: { type: 'text_delta', text: step.text } }),
          );
          break;
        case 'reasoning':
          openBlock('thinking');
          outputText += step.text;
          frames.push(
            event('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: step.text } }),
          );
          break;
        case 'tool_call': {
          close();
          index += 1;
          usedTools = true;
          const input = typeof step.arguments === 'string' ? step.arguments : JSON.stringify(step.arguments);
          outputText += input;
          frames.push(
            event('content_block_start', {
              index,
              content_block: {
                type: 'tool_use',
                id: step.id ?? `toolu_fake${sequence}_${index}`,
                name: step.name,
                input: {},
              },
            }),
          );
          frames.push(
            event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '' } }),
          );
          for (const piece of splitText(input, step.fragments ?? 3)) {
            frames.push(
              event('content_block_delta', {
                index,
                delta: { type: 'input_json_delta', partial_json: piece },
              }),
            );
          }
          frames.push(event('content_block_stop', { index }));
          break;
        }
        case 'usage':
          break;
        case 'delay':
          frames.push({ kind: 'delay', ms: step.ms });
          break;
        case 'raw':
          frames.push({ kind: 'data', text: step.data });
          break;
        case 'stream_error':
          frames.push(
            event('error', { error: { type: step.errorType ?? 'overloaded_error', message: step.message } }),
          );
          frames.push({ kind: 'cut', mode: 'end' });
          return frames;
        case 'cut':
          frames.push({ kind: 'cut', mode: step.mode ?? 'reset' });
          return frames;
      }
    }
    close();
    frames.push(
      event('message_delta', {
        delta: { stop_reason: stopReasonOf(reply, usedTools, refused), stop_sequence: null },
        usage: outputUsage(usage, outputText),
      }),
    );
    frames.push(event('message_stop', {}));
    return frames;
  },

  /**
   * A whole Messages reply (Anthropic API reference, "Messages"): `content` blocks (thinking with
   * its signature, text, tool_use with its parsed input), `stop_reason` and `usage`.
   */
  renderComplete(reply: FakeStreamReply, request: RecordedRequest, sequence: number): WireResponse {
    const totals = totalsOf(reply);
    if (totals.error !== undefined) {
      return {
        status: 529,
        headers: {},
        body: errorBody(totals.error.errorType ?? 'overloaded_error', totals.error.message),
      };
    }
    const body =
      typeof request.body === 'object' && request.body !== null
        ? (request.body as Record<string, unknown>)
        : {};
    const content: Record<string, unknown>[] = [];
    if (totals.reasoning.length > 0) {
      content.push({
        type: 'thinking',
        thinking: totals.reasoning,
        signature: Buffer.from(`fake-signature-${sequence}-0`).toString('base64'),
      });
    }
    const text = totals.text + totals.refusal;
    if (text.length > 0) content.push({ type: 'text', text });
    totals.toolCalls.forEach((call, index) => {
      let input: unknown;
      try {
        input = JSON.parse(call.arguments) as unknown;
      } catch {
        input = {}; // A truncated call: the API sends what it parsed, which is nothing.
      }
      content.push({
        type: 'tool_use',
        id: call.id ?? `toolu_fake${sequence}_${index}`,
        name: call.name,
        input,
      });
    });
    return {
      status: 200,
      headers: {},
      body: {
        id: `msg_fake${sequence}`,
        type: 'message',
        role: 'assistant',
        model: typeof body['model'] === 'string' ? body['model'] : 'fake-model',
        content,
        stop_reason: stopReasonOf(reply, totals.toolCalls.length > 0, totals.refusal.length > 0),
        stop_sequence: null,
        usage: {
          input_tokens: totals.usage?.inputTokens ?? estimateTokens(body['messages']),
          cache_creation_input_tokens: totals.usage?.cacheWriteTokens ?? 0,
          cache_read_input_tokens: totals.usage?.cachedInputTokens ?? 0,
          ...outputUsage(totals.usage, text + totals.reasoning),
        },
      },
    };
  },

  /** Anthropic's `request-id` header. */
  responseHeaders: (sequence) => ({ 'request-id': fakeRequestId(sequence) }),

  renderError(reply: Exclude<ResolvedFakeReply, FakeStreamReply>): WireResponse {
    const retryAfter = (seconds: number | undefined): Record<string, string> =>
      seconds === undefined ? {} : { 'retry-after': String(seconds) };
    switch (reply.type) {
      case 'rate_limited':
        return {
          status: 429,
          headers: retryAfter(reply.retryAfterSeconds),
          body: errorBody(
            'rate_limit_error',
            'This request would exceed the rate limit for your organization.',
          ),
        };
      case 'overloaded':
        return {
          status: 529,
          headers: retryAfter(reply.retryAfterSeconds),
          body: errorBody('overloaded_error', 'Overloaded'),
        };
      case 'server_error':
        return {
          status: reply.status ?? 500,
          headers: {},
          body: errorBody('api_error', 'Internal server error'),
        };
      case 'unauthorized':
        return reply.status === 403
          ? {
              status: 403,
              headers: {},
              body: errorBody(
                'permission_error',
                'Your API key does not have permission to use the specified resource.',
              ),
            }
          : { status: 401, headers: {}, body: errorBody('authentication_error', 'invalid x-api-key') };
      case 'insufficient_quota':
        return {
          status: 400,
          headers: {},
          body: errorBody(
            'invalid_request_error',
            'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
          ),
        };
      case 'context_length_exceeded':
        return {
          status: 400,
          headers: {},
          body: errorBody(
            'invalid_request_error',
            reply.shape === 'anthropic-input-and-max-tokens'
              ? 'input length and `max_tokens` exceed context limit: 195000 + 32000 > 200000, decrease input length or `max_tokens` and try again'
              : 'prompt is too long: 210000 tokens > 200000 maximum',
          ),
        };
      case 'http':
        return { status: reply.status, headers: { ...reply.headers }, body: reply.body };
    }
  },

  renderModels: (models) => ({
    data: models.map((model) => ({
      type: 'model',
      display_name: typeof model['id'] === 'string' ? model['id'] : 'fake',
      created_at: '2025-01-01T00:00:00Z',
      ...model,
    })),
    has_more: false,
    first_id: models[0]?.['id'] ?? null,
    last_id: models.at(-1)?.['id'] ?? null,
  }),
};
