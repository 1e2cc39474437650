import {
  contentToText,
  EventType,
  type BaseEvent,
  type Interrupt,
  type Message,
  type ResumeEntry,
  type RunAgentInput,
} from '@ag-ui/core';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import { ApiError } from '../../errors/index.ts';
import { lastSeqOf } from '../../events/index.ts';
import type { ServerServices } from '../../services/index.ts';
import { followRun } from '../follow-run.ts';
import { startProtocolTurn, type ForeignMessage } from '../protocol-turn.ts';
import { answerOfPayload, interruptOfView } from './ag-ui-interrupts.ts';
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

/** Where an AG-UI run picks up a workbench run, and what it says first. */
interface Continuation {
  conversationId: string;
  /** The workbench run followed (none: nothing to continue). */
  runId: string | undefined;
  /** Its events after this seq. */
  afterSeq: number;
  /** The ids the AG-UI text messages are made of. */
  messageId: string;
  modelId: string | undefined;
  metadata: Record<string, unknown>;
  /** AG-UI `CUSTOM youyou.warning` events to send after RUN_STARTED (resume entries not acted on). */
  warnings: Record<string, unknown>[];
  /** Cards of the run still waiting that no resume entry answered: the run ends interrupted again. */
  open: Interrupt[];
}

const TERMINAL_RUN = new Set(['completed', 'failed', 'cancelled', 'interrupted']);

/** A new turn: the last user message is sent in the thread's conversation (made when new). */
async function startTurn(services: ServerServices, input: RunAgentInput): Promise<Continuation> {
  const forwarded = (input.forwardedProps ?? {}) as Record<string, unknown>;
  const modelId = typeof forwarded['model_id'] === 'string' ? forwarded['model_id'] : undefined;
  const { conversationId, sent } = await startProtocolTurn(services, {
    conversationId: input.threadId,
    messages: input.messages.map(foreignMessageOf),
    modelId,
  });
  return {
    conversationId,
    runId: sent.run.id,
    afterSeq: sent.seq - 1,
    messageId: sent.assistant_message_id,
    modelId: sent.run.model_id ?? undefined,
    metadata: {
      youyou: { conversation_id: conversationId, run_id: sent.run.id, user_message_id: sent.user_message_id },
    },
    warnings: [],
    open: [],
  };
}

/**
 * A resuming run (AG-UI interrupts): each entry answers — or, `cancelled`, abandons — the card it
 * names, and the AG-UI run follows the workbench run from there (the same run, waiting on the
 * card; or the new one, when free text was taken as a new request). Entries naming no card of the
 * thread, or a card already resolved (say, in the web UI), are reported as warnings and skipped
 * (AG-UI: "an unrecognised entry SHOULD NOT fail the run"). A bad answer is a 400/422 before
 * anything streams.
 */
async function resumeTurn(
  services: ServerServices,
  input: RunAgentInput,
  resume: readonly ResumeEntry[],
): Promise<Continuation> {
  const conversationId = input.threadId;
  const known = (await services.conversations.find(conversationId)) !== undefined;
  const afterSeq = known ? ((await lastSeqOf(services.database, conversationId)) ?? 0) : 0;
  const warnings: Record<string, unknown>[] = [];
  const runs: string[] = [];
  for (const entry of resume) {
    const view = known
      ? await services.hitl.get(conversationId, entry.interruptId).catch((error: unknown) => {
          if (error instanceof ApiError && error.code === 'NOT_FOUND') return undefined;
          throw error;
        })
      : undefined;
    if (view === undefined) {
      warnings.push({
        interrupt_id: entry.interruptId,
        message: 'No card of this thread has this id; the entry was skipped.',
      });
      continue;
    }
    if (view.status !== 'pending') {
      warnings.push({
        interrupt_id: entry.interruptId,
        message: `The card was already resolved (${view.status}); the entry was skipped.`,
        status: view.status,
      });
      runs.push(view.card.run_id);
      continue;
    }
    if (entry.status === 'cancelled') {
      await services.hitl.abandon(conversationId, view.card.id, 'The AG-UI client abandoned the interrupt.');
      runs.push(view.card.run_id);
      continue;
    }
    const answered = await services.hitl.answer(conversationId, view.card.id, {
      answer: answerOfPayload(entry, view.card),
      // A client retrying the same run answers once.
      client_key: `ag-ui:${input.runId}:${entry.interruptId}`,
    });
    runs.push(answered.new_run_id ?? view.card.run_id);
  }
  const runId = runs.at(-1);
  const open =
    runId === undefined
      ? []
      : (await services.hitl.list(conversationId, 'pending'))
          .filter((card) => card.card.run_id === runId)
          .map(interruptOfView);
  const run = runId === undefined ? undefined : await services.runRepository.get(runId);
  return {
    conversationId,
    runId,
    afterSeq,
    // The resumed run's text continues the same workbench message under ids of its own.
    messageId: `${runId ?? conversationId}:${input.runId}`,
    modelId: run?.model_id ?? undefined,
    metadata: { youyou: { conversation_id: conversationId, run_id: runId ?? null, resumed: true } },
    warnings,
    open,
  };
}

/**
 * Runs one AG-UI turn: the thread is a conversation (created with the thread's id when new), the
 * last user message is sent, and the run's events stream back as AG-UI events over SSE, the
 * planboard as shared state (a snapshot, then JSON Patch deltas). A HITL card ends the AG-UI run
 * with an interrupt while the workbench run waits; the next AG-UI run's `resume` entries answer
 * it and stream the rest of the run. The run is the workbench's own: it shows in the web UI live,
 * and a client that disconnects before the run ends or interrupts cancels it (AG-UI's abortRun).
 *
 * @example
 * const response = await runAgUiTurn(services, input, request.signal);
 */
export async function runAgUiTurn(
  services: ServerServices,
  input: RunAgentInput,
  requestSignal: AbortSignal | undefined,
): Promise<Response> {
  const resume = input.resume ?? [];
  const turn =
    resume.length > 0 ? await resumeTurn(services, input, resume) : await startTurn(services, input);
  const { conversationId, runId } = turn;
  const state = (await services.conversations.find(conversationId))
    ? await services.planboards.get(conversationId)
    : { plan: { steps: [], version: 0 }, todos: { items: [], version: 0 } };
  const mapper = new AgUiEventMapper({
    threadId: input.threadId,
    runId: input.runId,
    messageId: turn.messageId,
    modelId: turn.modelId,
    state,
  });
  const abort = new AbortController();
  const leave = (): void => {
    if (abort.signal.aborted) return;
    abort.abort();
    // The client went away before the run ended: AG-UI's abortRun. The run stops.
    if (!mapper.finished && runId !== undefined) void services.runs.cancel(runId).catch(() => {});
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
        send(mapper.start(turn.metadata));
        send(
          turn.warnings.map((value) => ({
            type: EventType.CUSTOM,
            name: 'youyou.warning',
            value,
            timestamp: Date.now(),
          })),
        );
        if (turn.open.length > 0) {
          send(mapper.interrupt(turn.open));
          return;
        }
        if (runId === undefined) {
          send(mapper.finish());
          return;
        }
        const run = await services.runRepository.get(runId);
        if (TERMINAL_RUN.has(run.status)) {
          // Ended before this run could follow it (answered elsewhere, say): nothing left to stream.
          if (run.status === 'completed' || run.status === 'cancelled')
            send(mapper.finish(run.status === 'completed' ? 'success' : 'cancelled'));
          else send(mapper.abandon(`The run has ended (${run.status}).`, `RUN_${run.status.toUpperCase()}`));
          return;
        }
        for await (const event of followRun({
          eventLog: services.eventLog,
          hub: services.hub,
          conversationId,
          afterSeq: turn.afterSeq,
          runId,
          signal: abort.signal,
          stopAfter: (event) => event.type === 'hitl.request',
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
