import { contentToText, type BaseEvent, type Message, type RunAgentInput } from '@ag-ui/core';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import { ApiError } from '../../errors/index.ts';
import type { ServerServices } from '../../http/services.ts';
import { followRun } from '../follow-run.ts';
import { startProtocolTurn, type ForeignMessage } from '../protocol-turn.ts';
import { AgUiEventMapper } from './ag-ui-mapper.ts';

const encoder = new TextEncoder();

function foreignMessageOf(message: Message): ForeignMessage {
  if ('content' in message) {
    const content = message.content as Parameters<typeof contentToText>[0] | null;
    return { role: message.role, text: typeof content === 'string' ? content : contentToText(content ?? '') };
  }
  return { role: message.role, text: '' };
}

/** Parses and checks a request body as AG-UI's `RunAgentInput`. */
export function parseRunAgentInput(body: unknown): RunAgentInput {
  const parsed = RunAgentInputSchema.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      path: issue.path.map(String).join('.'),
      message: issue.message,
    }));
    throw new ApiError(
      'INVALID_INPUT',
      `The body is not an AG-UI RunAgentInput: ${issues[0]?.path ?? 'body'}: ${issues[0]?.message ?? ''}`,
      { details: { issues } },
    );
  }
  return parsed.data as RunAgentInput;
}

/**
 * Runs one AG-UI turn: the thread is a conversation (created with the thread's id when new), the
 * last user message is sent, and the run's events stream back as AG-UI events over SSE. The run is
 * the workbench's own: it shows in the web UI live, and a client that disconnects cancels it
 * (AG-UI's abortRun).
 *
 * @example
 * const response = await runAgUiTurn(services, input, request.signal);
 */
export async function runAgUiTurn(
  services: ServerServices,
  input: RunAgentInput,
  requestSignal: AbortSignal | undefined,
): Promise<Response> {
  if (input.resume !== undefined && input.resume.length > 0) {
    throw new ApiError('INVALID_INPUT', 'This thread has no interrupt waiting for an answer.', {
      details: { field: 'resume', interrupt_ids: input.resume.map((entry) => entry.interruptId) },
    });
  }
  const forwarded = (input.forwardedProps ?? {}) as Record<string, unknown>;
  const modelId = typeof forwarded['model_id'] === 'string' ? forwarded['model_id'] : undefined;
  const { conversationId, sent } = await startProtocolTurn(services, {
    conversationId: input.threadId,
    messages: input.messages.map(foreignMessageOf),
    modelId,
  });
  const runId = sent.run.id;
  const mapper = new AgUiEventMapper({
    threadId: input.threadId,
    runId: input.runId,
    messageId: sent.assistant_message_id,
    modelId: sent.run.model_id ?? undefined,
  });
  const abort = new AbortController();
  const leave = (): void => {
    if (abort.signal.aborted) return;
    abort.abort();
    // The client went away before the run ended: AG-UI's abortRun. The run stops.
    if (!mapper.finished) void services.runs.cancel(runId).catch(() => {});
  };
  requestSignal?.addEventListener('abort', leave, { once: true });
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (events: readonly BaseEvent[]): void => {
        if (events.length === 0 || abort.signal.aborted) return;
        controller.enqueue(
          encoder.encode(events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('')),
        );
      };
      try {
        send(
          mapper.start({
            youyou: { conversation_id: conversationId, run_id: runId, user_message_id: sent.user_message_id },
          }),
        );
        for await (const event of followRun({
          eventLog: services.eventLog,
          hub: services.hub,
          conversationId,
          afterSeq: sent.seq - 1,
          runId,
          signal: abort.signal,
        })) {
          send(mapper.map(event));
        }
        send(mapper.abandon('The server stopped following the run.'));
      } catch (error) {
        services.logger.warn({ err: error, runId }, 'the AG-UI stream failed');
        send(mapper.abandon(error instanceof Error ? error.message : String(error)));
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
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    },
  });
}
