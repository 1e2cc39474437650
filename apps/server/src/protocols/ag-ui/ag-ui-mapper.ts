import { EventType, type BaseEvent, type Interrupt, type TokenUsage } from '@ag-ui/core';
import type { WorkbenchEvent } from '../../events/index.ts';

/**
 * Translates one run's workbench events into AG-UI events (protocol 1.0), in order. The table
 * (docs/protocols.md has it with examples):
 *
 * | workbench event | AG-UI events |
 * | --- | --- |
 * | (stream opens) | `RUN_STARTED` |
 * | `message.delta` | `TEXT_MESSAGE_START` (first of a segment), `TEXT_MESSAGE_CONTENT` |
 * | `thinking.delta` | `REASONING_START` + `REASONING_MESSAGE_START` (first), `REASONING_MESSAGE_CONTENT` |
 * | `tool.call` | `TOOL_CALL_START`, `TOOL_CALL_ARGS`, `TOOL_CALL_END` |
 * | `tool.result` | `TOOL_CALL_RESULT` |
 * | `plan.update`, `todo.update` | `STATE_SNAPSHOT` `{ plan, todos }` |
 * | `hitl.request` | `RUN_FINISHED` with outcome `interrupt` (the run waits; a resume answers it) |
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
  #state: { plan?: unknown; todos?: unknown } = {};
  #modelId: string | undefined;
  #finished = false;

  /** `messageId`: the workbench's assistant message, so ids match what the web UI shows. */
  constructor(options: { threadId: string; runId: string; messageId: string; modelId?: string | undefined }) {
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

  /** A HITL card the run waits on: the AG-UI run ends here with an interrupt outcome. */
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

  /** The stream ended without a terminal event (the server is stopping). */
  abandon(message: string): BaseEvent[] {
    if (this.#finished) return [];
    const out: BaseEvent[] = [];
    this.#closeOpen(out);
    this.#finished = true;
    out.push(this.#event({ type: EventType.RUN_ERROR, message, code: 'SERVICE_UNAVAILABLE' }));
    return out;
  }

  /** Event types other capabilities add (plans, todos); unknown ones are skipped, as clients do. */
  #mapExtension(event: WorkbenchEvent, out: BaseEvent[]): BaseEvent[] {
    const type = event.type as string;
    const payload = (event as { payload: unknown }).payload as Record<string, unknown>;
    if (type === 'plan.update' || type === 'todo.update') {
      const key = type === 'plan.update' ? 'plan' : 'todos';
      this.#state = { ...this.#state, [key]: payload[key] ?? payload };
      out.push(this.#event({ type: EventType.STATE_SNAPSHOT, snapshot: this.#state }));
    }
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
