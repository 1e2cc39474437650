import { EventType, type BaseEvent, type Interrupt, type TokenUsage } from '@ag-ui/core';
import type {
  HitlRequestPayload,
  PlanboardView,
  PlanUpdatePayload,
  TodoUpdatePayload,
} from '@youyou/contracts';
// A CommonJS package: its functions are on the default export under Node's ESM.
import jsonPatch from 'fast-json-patch';
import type { WorkbenchEvent } from '../../events/index.ts';
import { interruptOf } from './ag-ui-interrupts.ts';

/**
 * Translates one run's workbench events into AG-UI events (protocol 1.0), in order. The table
 * (docs/protocols.md has it with examples):
 *
 * | workbench event | AG-UI events |
 * | --- | --- |
 * | (stream opens) | `RUN_STARTED`, then `STATE_SNAPSHOT` `{ plan, todos }` (the planboard) |
 * | `message.delta` | `TEXT_MESSAGE_START` (first of a segment), `TEXT_MESSAGE_CONTENT` |
 * | `thinking.delta` | `REASONING_START` + `REASONING_MESSAGE_START` (first), `REASONING_MESSAGE_CONTENT` |
 * | `tool.call` | `TOOL_CALL_START`, `TOOL_CALL_ARGS`, `TOOL_CALL_END` |
 * | `tool.result` | `TOOL_CALL_RESULT` |
 * | `plan.update`, `todo.update` | `STATE_DELTA`: the JSON Patch (RFC 6902) from the last state |
 * | `hitl.request` | `RUN_FINISHED` outcome `interrupt`, the card as the interrupt (a resume answers it) |
 * | `context.compacted`, `error` | `CUSTOM` `youyou.context_compacted` / `youyou.error` |
 * | `run.completed` | `RUN_FINISHED` outcome `success`, with `usage` |
 * | `run.cancelled` | `RUN_FINISHED` outcome `cancelled` |
 * | `run.failed`, `run.interrupted` | `RUN_ERROR` with the error code |
 *
 * An open text or reasoning message is ended (`…_END`) before anything else is sent, so the
 * stream always passes the AG-UI client's sequence checks.
 *
 * @example
 * const mapper = new AgUiEventMapper({ threadId, runId, messageId: assistantMessageId });
 * send(mapper.start());
 * for await (const event of followRun(…)) send(mapper.map(event));
 */
export class AgUiEventMapper {
  readonly #threadId: string;
  readonly #runId: string;
  readonly #messageId: string;
  #text: string | undefined;
  #reasoning: string | undefined;
  #segment = 0;
  #state: PlanboardView;
  #modelId: string | undefined;
  #finished = false;

  /**
   * `messageId`: the workbench's assistant message, so ids match what the web UI shows; `state`:
   * the conversation's planboard when the stream opens (AG-UI's shared state).
   */
  constructor(options: {
    threadId: string;
    runId: string;
    messageId: string;
    modelId?: string | undefined;
    state: PlanboardView;
  }) {
    this.#state = options.state;
    this.#threadId = options.threadId;
    this.#runId = options.runId;
    this.#messageId = options.messageId;
    this.#modelId = options.modelId;
  }

  /** True once a terminal event (finished, error or interrupt) has been produced. */
  get finished(): boolean {
    return this.#finished;
  }

  start(metadata: Record<string, unknown>): BaseEvent[] {
    return [
      this.#event({
        type: EventType.RUN_STARTED,
        threadId: this.#threadId,
        runId: this.#runId,
        protocolVersion: '1.0',
        metadata,
      }),
      this.#event({ type: EventType.STATE_SNAPSHOT, snapshot: this.#state }),
    ];
  }

  map(event: WorkbenchEvent): BaseEvent[] {
    const out: BaseEvent[] = [];
    switch (event.type) {
      case 'message.delta': {
        this.#closeReasoning(out);
        if (this.#text === undefined) {
          this.#text = this.#segmentId();
          out.push(
            this.#event({ type: EventType.TEXT_MESSAGE_START, messageId: this.#text, role: 'assistant' }),
          );
        }
        if (event.payload.text !== '') {
          out.push(
            this.#event({
              type: EventType.TEXT_MESSAGE_CONTENT,
              messageId: this.#text,
              delta: event.payload.text,
            }),
          );
        }
        return out;
      }
      case 'thinking.delta': {
        this.#closeText(out);
        if (this.#reasoning === undefined) {
          this.#reasoning = `${this.#segmentId()}:reasoning`;
          out.push(this.#event({ type: EventType.REASONING_START, messageId: this.#reasoning }));
          out.push(
            this.#event({
              type: EventType.REASONING_MESSAGE_START,
              messageId: this.#reasoning,
              role: 'reasoning',
            }),
          );
        }
        if (event.payload.text !== '') {
          out.push(
            this.#event({
              type: EventType.REASONING_MESSAGE_CONTENT,
              messageId: this.#reasoning,
              delta: event.payload.text,
            }),
          );
        }
        return out;
      }
      case 'tool.call': {
        const parent = this.#text ?? this.#segmentId();
        this.#closeOpen(out);
        out.push(
          this.#event({
            type: EventType.TOOL_CALL_START,
            toolCallId: event.payload.call_id,
            toolCallName: event.payload.tool_name,
            parentMessageId: parent,
          }),
          this.#event({
            type: EventType.TOOL_CALL_ARGS,
            toolCallId: event.payload.call_id,
            delta: event.payload.arguments,
          }),
          this.#event({ type: EventType.TOOL_CALL_END, toolCallId: event.payload.call_id }),
        );
        return out;
      }
      case 'tool.result':
        this.#closeOpen(out);
        out.push(
          this.#event({
            type: EventType.TOOL_CALL_RESULT,
            messageId: `${event.payload.call_id}:result`,
            toolCallId: event.payload.call_id,
            content: event.payload.output,
            role: 'tool',
            ...(event.payload.success ? {} : { metadata: { youyou: { is_error: true } } }),
          }),
        );
        this.#segment++;
        return out;
      case 'context.compacted':
        out.push(
          this.#event({ type: EventType.CUSTOM, name: 'youyou.context_compacted', value: event.payload }),
        );
        return out;
      case 'error':
        out.push(this.#event({ type: EventType.CUSTOM, name: 'youyou.error', value: event.payload.error }));
        return out;
      case 'run.completed':
        this.#closeOpen(out);
        this.#finished = true;
        out.push(
          this.#event({
            type: EventType.RUN_FINISHED,
            threadId: this.#threadId,
            runId: this.#runId,
            outcome: { type: 'success' },
            usage: [this.#usage(event.payload.usage)],
          }),
        );
        return out;
      case 'run.cancelled':
        this.#closeOpen(out);
        this.#finished = true;
        out.push(
          this.#event({
            type: EventType.RUN_FINISHED,
            threadId: this.#threadId,
            runId: this.#runId,
            outcome: { type: 'cancelled' },
          }),
        );
        return out;
      case 'run.failed':
        this.#closeOpen(out);
        this.#finished = true;
        out.push(
          this.#event({
            type: EventType.RUN_ERROR,
            message: event.payload.error.message,
            code: event.payload.error.code,
          }),
        );
        return out;
      case 'run.interrupted':
        this.#closeOpen(out);
        this.#finished = true;
        out.push(
          this.#event({
            type: EventType.RUN_ERROR,
            message: `The run was interrupted (${event.payload.reason}); send the message again.`,
            code: 'RUN_INTERRUPTED',
          }),
        );
        return out;
      default:
        return this.#mapExtension(event, out);
    }
  }

  /** HITL cards the run waits on: the AG-UI run ends here with an interrupt outcome. */
  interrupt(interrupts: Interrupt[]): BaseEvent[] {
    const out: BaseEvent[] = [];
    this.#closeOpen(out);
    this.#finished = true;
    out.push(
      this.#event({
        type: EventType.RUN_FINISHED,
        threadId: this.#threadId,
        runId: this.#runId,
        outcome: { type: 'interrupt', interrupts },
      }),
    );
    return out;
  }

  /** Ends a run that had nothing (more) to stream: the resumed run had ended already, say. */
  finish(outcome: 'success' | 'cancelled' = 'success'): BaseEvent[] {
    if (this.#finished) return [];
    const out: BaseEvent[] = [];
    this.#closeOpen(out);
    this.#finished = true;
    out.push(
      this.#event({
        type: EventType.RUN_FINISHED,
        threadId: this.#threadId,
        runId: this.#runId,
        outcome: { type: outcome },
      }),
    );
    return out;
  }

  /** The stream ended without a terminal event (the server is stopping), or the run had failed. */
  abandon(message: string, code = 'SERVICE_UNAVAILABLE'): BaseEvent[] {
    if (this.#finished) return [];
    const out: BaseEvent[] = [];
    this.#closeOpen(out);
    this.#finished = true;
    out.push(this.#event({ type: EventType.RUN_ERROR, message, code }));
    return out;
  }

  /**
   * Event types other capabilities add: plans and todos change the shared state (a JSON Patch from
   * the last state sent), a HITL card ends the AG-UI run with an interrupt. Unknown ones are
   * skipped, as clients do.
   */
  #mapExtension(event: WorkbenchEvent, out: BaseEvent[]): BaseEvent[] {
    const type = event.type as string;
    const payload = (event as { payload: unknown }).payload;
    if (type === 'hitl.request') return this.interrupt([interruptOf(payload as HitlRequestPayload)]);
    if (type !== 'plan.update' && type !== 'todo.update') return out;
    const next: PlanboardView = structuredClone(this.#state);
    if (type === 'plan.update') {
      const plan = payload as PlanUpdatePayload;
      if (plan.version <= next.plan.version) return out;
      next.plan = {
        steps: plan.steps,
        version: plan.version,
        ...(plan.explanation === undefined ? {} : { explanation: plan.explanation }),
      };
    } else {
      const todos = payload as TodoUpdatePayload;
      if (todos.version <= next.todos.version) return out;
      next.todos = { items: todos.todos, version: todos.version };
    }
    const delta = jsonPatch.compare(this.#state, next);
    this.#state = next;
    if (delta.length > 0) out.push(this.#event({ type: EventType.STATE_DELTA, delta }));
    return out;
  }

  #usage(usage: { input_tokens: number; output_tokens: number }): TokenUsage {
    return {
      ...(this.#modelId === undefined ? {} : { model: this.#modelId }),
      inputTokens: usage.input_tokens,
      outputTokens: usage.output_tokens,
      totalTokens: usage.input_tokens + usage.output_tokens,
    };
  }

  #segmentId(): string {
    return this.#segment === 0 ? this.#messageId : `${this.#messageId}:${this.#segment}`;
  }

  #closeText(out: BaseEvent[]): void {
    if (this.#text === undefined) return;
    out.push(this.#event({ type: EventType.TEXT_MESSAGE_END, messageId: this.#text }));
    this.#text = undefined;
  }

  #closeReasoning(out: BaseEvent[]): void {
    if (this.#reasoning === undefined) return;
    out.push(this.#event({ type: EventType.REASONING_MESSAGE_END, messageId: this.#reasoning }));
    out.push(this.#event({ type: EventType.REASONING_END, messageId: this.#reasoning }));
    this.#reasoning = undefined;
  }

  #closeOpen(out: BaseEvent[]): void {
    this.#closeReasoning(out);
    this.#closeText(out);
  }

  #event<T extends BaseEvent>(event: T): T {
    return { ...event, timestamp: Date.now() };
  }
}
