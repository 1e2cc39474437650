import { ALL_ERROR_CODES, ApiError, type ApiErrorCode } from '../../errors/index.ts';
import type { RunUsage, WorkbenchEvent } from '../../events/index.ts';
import type { ServerServices } from '../../services/index.ts';
import { followRun } from '../follow-run.ts';
import { startProtocolTurn } from '../protocol-turn.ts';
import { ChatCompletionRequestSchema, textOfContent, type ChatCompletionRequest } from './openai-schemas.ts';

/** The default agent as a model: the default profile with the model its router picks. */
export const DEFAULT_AGENT_MODEL = 'youyou';
/** A profile as a model: `youyou:<profile id>`. */
export const PROFILE_MODEL_PREFIX = 'youyou:';

const encoder = new TextEncoder();

/**
 * `GET /v1/models`: what a client may pick, as OpenAI models — the default agent (`youyou`), each
 * agent profile (`youyou:<profile id>`, its agent with its own model choice), and each configured
 * chat model (`<provider>/<model>`, the default agent on that model). Every entry says what it is
 * in `youyou`.
 */
export async function listAgentModels(services: ServerServices) {
  const created = Math.floor(services.startedAt / 1000);
  const profiles = await services.profiles.list();
  const models = await services.providers.models();
  return {
    object: 'list' as const,
    data: [
      {
        id: DEFAULT_AGENT_MODEL,
        object: 'model' as const,
        created,
        owned_by: 'youyou',
        youyou: { kind: 'agent', name: 'The default agent' },
      },
      ...profiles.map((profile) => ({
        id: `${PROFILE_MODEL_PREFIX}${profile.id}`,
        object: 'model' as const,
        created: Math.floor(Date.parse(profile.created_at) / 1000),
        owned_by: 'youyou',
        youyou: {
          kind: 'profile',
          profile_id: profile.id,
          name: profile.name,
          ...(profile.description === undefined ? {} : { description: profile.description }),
        },
      })),
      ...models.map((model) => ({
        id: model.id,
        object: 'model' as const,
        created,
        owned_by: model.provider,
        youyou: { kind: 'model', name: model.display_name },
      })),
    ],
  };
}

/** Parses a chat completions request body; the error names the field. */
export function parseChatCompletionRequest(body: unknown): ChatCompletionRequest {
  const parsed = ChatCompletionRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ApiError(
      'INVALID_INPUT',
      `The body is not a chat completions request: ${issue?.path.map(String).join('.') || 'body'}: ${issue?.message ?? ''}`,
      {
        details: {
          issues: parsed.error.issues.map((entry) => ({
            path: entry.path.map(String).join('.'),
            message: entry.message,
          })),
        },
      },
    );
  }
  return parsed.data;
}

/** What a request's `model` names: the default agent, a profile's agent, or a model for the default agent. */
async function agentOf(
  services: ServerServices,
  model: string,
): Promise<{ modelId?: string; profileId?: string }> {
  if (model === DEFAULT_AGENT_MODEL) return {};
  if (model.startsWith(PROFILE_MODEL_PREFIX)) {
    const profile = await services.profiles.find(model.slice(PROFILE_MODEL_PREFIX.length));
    if (profile !== undefined) return { profileId: profile.id };
  } else if ((await services.providers.models()).some((option) => option.id === model)) {
    return { modelId: model };
  }
  const available = (await listAgentModels(services)).data.map((entry) => entry.id);
  throw new ApiError('NOT_FOUND', `The model '${model}' does not exist; GET /v1/models lists the agents.`, {
    details: { resource: 'model', id: model, available },
  });
}

function usageOf(usage: RunUsage | undefined) {
  const prompt = usage?.input_tokens ?? 0;
  const completion = usage?.output_tokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/**
 * `POST /v1/chat/completions`: one turn of the agent (its tools run on the server), answered in
 * OpenAI's wire format, streamed (`chat.completion.chunk` SSE, `[DONE]`) or whole. The turn is a
 * workbench conversation the user can open; its id is in `youyou.conversation_id` and in the
 * `x-youyou-conversation-id` header, and `metadata.conversation_id` continues it.
 *
 * @example
 * const response = await chatCompletion(services, parseChatCompletionRequest(body), request.signal);
 */
export async function chatCompletion(
  services: ServerServices,
  request: ChatCompletionRequest,
  requestSignal: AbortSignal | undefined,
): Promise<Response> {
  const { modelId, profileId } = await agentOf(services, request.model);
  const { conversationId, sent } = await startProtocolTurn(services, {
    profileId,
    conversationId: request.metadata?.['conversation_id'] ?? undefined,
    messages: request.messages.map((message) => ({
      role: message.role,
      text: textOfContent(message.content),
    })),
    modelId,
  });
  const runId = sent.run.id;
  const id = `chatcmpl-${runId}`;
  const created = Math.floor(Date.now() / 1000);
  const abort = new AbortController();
  let ended = false;
  const leave = (): void => {
    if (abort.signal.aborted) return;
    abort.abort();
    if (!ended) void services.runs.cancel(runId).catch(() => {});
  };
  requestSignal?.addEventListener('abort', leave, { once: true });
  const events = followRun({
    eventLog: services.eventLog,
    hub: services.hub,
    conversationId,
    afterSeq: sent.seq - 1,
    runId,
    signal: abort.signal,
  });
  const extension = { conversation_id: conversationId, run_id: runId };
  const headers = { 'x-youyou-conversation-id': conversationId, 'x-youyou-run-id': runId };

  if (request.stream !== true) {
    let text = '';
    let last: WorkbenchEvent | undefined;
    try {
      for await (const event of events) {
        if (event.type === 'message.delta') text += event.payload.text;
        last = event;
      }
    } finally {
      ended = true;
      requestSignal?.removeEventListener('abort', leave);
    }
    if (last?.type === 'run.failed') {
      const code = last.payload.error.code;
      const known = (ALL_ERROR_CODES as readonly string[]).includes(code);
      throw new ApiError(known ? (code as ApiErrorCode) : 'PROVIDER_ERROR', last.payload.error.message, {
        retryable: last.payload.error.retryable,
        details: extension,
      });
    }
    if (last?.type !== 'run.completed' && last?.type !== 'run.cancelled') {
      throw new ApiError('SERVICE_UNAVAILABLE', 'The run was interrupted; send the request again.', {
        retryable: true,
        details: extension,
      });
    }
    return Response.json(
      {
        id,
        object: 'chat.completion',
        created,
        model: request.model,
        system_fingerprint: null,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: text, refusal: null },
            logprobs: null,
            finish_reason: 'stop',
          },
        ],
        usage: usageOf(last.payload.usage),
        youyou: extension,
      },
      { headers },
    );
  }

  const includeUsage = request.stream_options?.include_usage === true;
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model: request.model,
    system_fingerprint: null,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (data: unknown): void => {
        if (!abort.signal.aborted) controller.enqueue(encoder.encode(`data: ${JSON.stringify(data)}\n\n`));
      };
      try {
        send({ ...chunk({ role: 'assistant', content: '' }), youyou: extension });
        for await (const event of events) {
          switch (event.type) {
            case 'message.delta':
              if (event.payload.text !== '') send(chunk({ content: event.payload.text }));
              break;
            case 'thinking.delta':
              // The field DeepSeek, vLLM and others use; OpenAI's client passes it through.
              if (event.payload.text !== '') send(chunk({ reasoning_content: event.payload.text }));
              break;
            case 'run.completed':
            case 'run.cancelled':
              ended = true;
              send(chunk({}, 'stop'));
              if (includeUsage) {
                send({ ...chunk({}), choices: [], usage: usageOf(event.payload.usage) });
              }
              break;
            case 'run.failed':
              ended = true;
              send({
                error: {
                  message: event.payload.error.message,
                  type: 'server_error',
                  code: event.payload.error.code,
                },
              });
              break;
            case 'run.interrupted':
              ended = true;
              send({
                error: {
                  message: 'The run was interrupted.',
                  type: 'server_error',
                  code: 'SERVICE_UNAVAILABLE',
                },
              });
              break;
            default:
              break;
          }
        }
        if (!abort.signal.aborted) controller.enqueue(encoder.encode('data: [DONE]\n\n'));
      } catch (error) {
        services.logger.warn({ err: error, runId }, 'the chat completions stream failed');
      } finally {
        requestSignal?.removeEventListener('abort', leave);
        if (!abort.signal.aborted) controller.close();
      }
    },
    cancel() {
      leave();
    },
  });
  return new Response(stream, {
    status: 200,
    headers: {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    },
  });
}
