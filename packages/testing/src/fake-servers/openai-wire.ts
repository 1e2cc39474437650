import type {
  ContextLengthShape,
  ResolvedFakeReply,
  FakeStep,
  FakeStreamReply,
  RecordedRequest,
} from './fake-script.ts';
import { estimateTokens, fakeRequestId, splitText, totalsOf } from './wire-format.ts';
import type { WireFormat, WireFrame, WireResponse } from './wire-format.ts';

type Usage = Extract<FakeStep, { type: 'usage' }>;

function requestField(request: RecordedRequest, key: string): unknown {
  return typeof request.body === 'object' && request.body !== null
    ? (request.body as Record<string, unknown>)[key]
    : undefined;
}

function errorBody(message: string, type: string, code: string | null, param: string | null = null): unknown {
  return { error: { message, type, param, code } };
}

const CONTEXT_LENGTH_BODIES: Partial<Record<ContextLengthShape, unknown>> = {
  openai: errorBody(
    "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages.",
    'invalid_request_error',
    'context_length_exceeded',
    'messages',
  ),
  vllm: {
    object: 'error',
    message:
      "This model's maximum context length is 32768 tokens. However, you requested 41648 tokens (37552 in the messages, 4096 in the completion). Please reduce the length of the messages or completion.",
    type: 'BadRequestError',
    param: null,
    code: 400,
  },
  'llama.cpp': {
    error: {
      code: 400,
      message: 'request (4390 tokens) exceeds the available context size (4096 tokens), try increasing it',
      type: 'exceed_context_size_error',
      n_prompt_tokens: 4390,
      n_ctx: 4096,
    },
  },
  moonshot: {
    error: {
      message: 'Invalid request: Your request exceeded model token limit: 8192',
      type: 'invalid_request_error',
    },
  },
};

/**
 * The Chat Completions wire format (OpenAI API reference, "The chat completion chunk object"):
 * `data: {chat.completion.chunk}` lines, tool calls as `delta.tool_calls[]` fragments keyed by
 * `index`, a final chunk with empty `choices` and `usage` when the request set
 * `stream_options.include_usage`, then `data: [DONE]`.
 *
 * @example
 * const frames = openAIWire.renderStream(fakeTextReply('Hi'), recordedRequest, 1); // the bytes a test would receive
 */
export const openAIWire: WireFormat = {
  name: 'openai',
  basePath: '/v1',
  chatPath: '/v1/chat/completions',
  modelsPath: '/v1/models',

  isAuthorized: (headers, apiKey) => headers['authorization'] === `Bearer ${apiKey}`,

  renderStream(reply: FakeStreamReply, request: RecordedRequest, sequence: number): WireFrame[] {
    const model =
      typeof requestField(request, 'model') === 'string'
        ? (requestField(request, 'model') as string)
        : 'fake-model';
    const base = {
      id: `chatcmpl-fake${sequence}`,
      object: 'chat.completion.chunk',
      created: 1_700_000_000 + sequence,
      model,
      system_fingerprint: 'fp_fake',
    };
    const frame = (payload: unknown): WireFrame => ({
      kind: 'data',
      text: `data: ${JSON.stringify(payload)}\n\n`,
    });
    const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): WireFrame =>
      frame({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] });
    const frames: WireFrame[] = [chunk({ role: 'assistant', content: '' })];
    let toolIndex = 0;
    let outputText = '';
    let refused = false;
    let usage: Usage | undefined;
    for (const step of reply.steps) {
      if (reply.stepDelayMs !== undefined && reply.stepDelayMs > 0)
        frames.push({ kind: 'delay', ms: reply.stepDelayMs });
      switch (step.type) {
        case 'text':
          outputText += step.text;
          frames.push(chunk({ content: step.text }));
          break;
        case 'reasoning':
          outputText += step.text;
          frames.push(chunk({ [reply.reasoningField ?? 'reasoning_content']: step.text }));
          break;
        case 'refusal':
          // As OpenAI sends it: the first refusal chunk has `content: null`.
          outputText += step.text;
          frames.push(chunk(refused ? { refusal: step.text } : { content: null, refusal: step.text }));
          refused = true;
          break;
        case 'tool_call': {
          const toolArguments =
            typeof step.arguments === 'string' ? step.arguments : JSON.stringify(step.arguments);
          const index = toolIndex;
          toolIndex += 1;
          outputText += toolArguments;
          frames.push(
            chunk({
              tool_calls: [
                {
                  index,
                  id: step.id ?? `call_fake${sequence}_${index}`,
                  type: 'function',
                  function: { name: step.name, arguments: '' },
                },
              ],
            }),
          );
          for (const piece of splitText(toolArguments, step.fragments ?? 3)) {
            frames.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
          }
          break;
        }
        case 'usage':
          usage = step;
          break;
        case 'delay':
          frames.push({ kind: 'delay', ms: step.ms });
          break;
        case 'raw':
          frames.push({ kind: 'data', text: step.data });
          break;
        case 'stream_error':
          frames.push(
            frame({
              ...base,
              error: {
                message: step.message,
                type: step.errorType ?? 'server_error',
                code: step.code ?? null,
              },
              choices: [],
            }),
          );
          frames.push({ kind: 'cut', mode: 'end' });
          return frames;
        case 'cut':
          frames.push({ kind: 'cut', mode: step.mode ?? 'reset' });
          return frames;
      }
    }
    const finishReason = reply.finishReason ?? (toolIndex > 0 ? 'tool_calls' : 'stop');
    frames.push(chunk({}, finishReason));
    const streamOptions = requestField(request, 'stream_options');
    if (
      typeof streamOptions === 'object' &&
      streamOptions !== null &&
      (streamOptions as { include_usage?: unknown }).include_usage === true
    ) {
      const promptTokens = usage?.inputTokens ?? estimateTokens(requestField(request, 'messages'));
      const completionTokens = usage?.outputTokens ?? estimateTokens(outputText);
      frames.push(
        frame({
          ...base,
          choices: [],
          usage: {
            prompt_tokens: promptTokens,
            completion_tokens: completionTokens,
            total_tokens: promptTokens + completionTokens,
            prompt_tokens_details: { cached_tokens: usage?.cachedInputTokens ?? 0 },
            completion_tokens_details: { reasoning_tokens: usage?.reasoningTokens ?? 0 },
          },
        }),
      );
    }
    frames.push({ kind: 'data', text: 'data: [DONE]\n\n' });
    return frames;
  },

  /**
   * A whole `chat.completion` (OpenAI API reference, "The chat completion object"): one choice
   * whose `message` holds the text, refusal and tool calls, its `finish_reason`, and `usage`.
   */
  renderComplete(reply: FakeStreamReply, request: RecordedRequest, sequence: number): WireResponse {
    const totals = totalsOf(reply);
    if (totals.error !== undefined) {
      return {
        status: 500,
        headers: {},
        body: errorBody(totals.error.message, totals.error.errorType ?? 'server_error', null),
      };
    }
    const model =
      typeof requestField(request, 'model') === 'string' ? requestField(request, 'model') : 'fake-model';
    const message: Record<string, unknown> = {
      role: 'assistant',
      content: totals.text.length > 0 || totals.refusal.length === 0 ? totals.text : null,
      refusal: totals.refusal.length > 0 ? totals.refusal : null,
      annotations: [],
    };
    if (totals.reasoning.length > 0) message[reply.reasoningField ?? 'reasoning_content'] = totals.reasoning;
    if (totals.toolCalls.length > 0) {
      message['tool_calls'] = totals.toolCalls.map((call, index) => ({
        id: call.id ?? `call_fake${sequence}_${index}`,
        type: 'function',
        function: { name: call.name, arguments: call.arguments },
      }));
    }
    const promptTokens = totals.usage?.inputTokens ?? estimateTokens(requestField(request, 'messages'));
    const completionTokens =
      totals.usage?.outputTokens ?? estimateTokens(totals.text + totals.refusal + totals.reasoning);
    return {
      status: 200,
      headers: {},
      body: {
        id: `chatcmpl-fake${sequence}`,
        object: 'chat.completion',
        created: 1_700_000_000 + sequence,
        model,
        choices: [
          {
            index: 0,
            message,
            logprobs: null,
            finish_reason: reply.finishReason ?? (totals.toolCalls.length > 0 ? 'tool_calls' : 'stop'),
          },
        ],
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: completionTokens,
          total_tokens: promptTokens + completionTokens,
          prompt_tokens_details: { cached_tokens: totals.usage?.cachedInputTokens ?? 0 },
          completion_tokens_details: { reasoning_tokens: totals.usage?.reasoningTokens ?? 0 },
        },
        system_fingerprint: 'fp_fake',
      },
    };
  },

  /** OpenAI's `x-request-id` (and the processing-time header beside it). */
  responseHeaders: (sequence) => ({
    'x-request-id': fakeRequestId(sequence),
    'openai-processing-ms': '1',
    'openai-version': '2020-10-01',
  }),

  renderError(reply: Exclude<ResolvedFakeReply, FakeStreamReply>): WireResponse {
    switch (reply.type) {
      case 'insufficient_quota':
        // OpenAI's documented body for an account out of credit: a 429 that is not a rate limit.
        return {
          status: 429,
          headers: {},
          body: errorBody(
            'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
            'insufficient_quota',
            'insufficient_quota',
          ),
        };
      case 'rate_limited':
        return {
          status: 429,
          headers:
            reply.retryAfterSeconds === undefined ? {} : { 'retry-after': String(reply.retryAfterSeconds) },
          body: errorBody(
            'Rate limit reached for requests. Please try again later.',
            'requests',
            'rate_limit_exceeded',
          ),
        };
      case 'overloaded':
        return {
          status: 503,
          headers:
            reply.retryAfterSeconds === undefined ? {} : { 'retry-after': String(reply.retryAfterSeconds) },
          body: errorBody('The server is overloaded or not ready yet.', 'server_error', null),
        };
      case 'server_error':
        return {
          status: reply.status ?? 500,
          headers: {},
          body: errorBody('The server had an error while processing your request.', 'server_error', null),
        };
      case 'unauthorized':
        return {
          status: reply.status ?? 401,
          headers: {},
          body: errorBody(
            reply.quotedKey === undefined
              ? 'Incorrect API key provided.'
              : `Incorrect API key provided: ${reply.quotedKey}. You can find your API key at https://platform.openai.com/account/api-keys.`,
            'invalid_request_error',
            'invalid_api_key',
          ),
        };
      case 'context_length_exceeded':
        return {
          status: 400,
          headers: {},
          body: CONTEXT_LENGTH_BODIES[reply.shape ?? 'openai'] ?? CONTEXT_LENGTH_BODIES.openai,
        };
      case 'http':
        return { status: reply.status, headers: { ...reply.headers }, body: reply.body };
    }
  },

  renderModels: (models) => ({
    object: 'list',
    data: models.map((model) => ({ object: 'model', created: 1_700_000_000, owned_by: 'fake', ...model })),
  }),
};
