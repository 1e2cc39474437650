import type {
  ContextLengthShape,
  FakeStep,
  FakeStreamReply,
  RecordedRequest,
  ResolvedFakeReply,
} from './fake-script.ts';
import { estimateTokens, splitText } from './wire-format.ts';
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

  renderError(reply: Exclude<ResolvedFakeReply, FakeStreamReply>): WireResponse {
    switch (reply.type) {
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
          body: errorBody('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'),
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
