import type { AgentEvent, EventStamp } from '../events/index.ts';
import type { Reply } from '../model-call/index.ts';
import type { Message } from '../provider/index.ts';
import type { ToolCallOutcome } from '../tools/index.ts';
import type { SessionRecordInit } from './session-record.ts';
import { appendMessage, type SessionState } from './session-runtime.ts';

/**
 * What a turn adds to its session: messages into the context and records into the log. A storage
 * failure becomes a warning event and the records stay queued (the next write retries them).
 */
export class TurnRecords {
  readonly #state: SessionState;
  readonly #stamp: EventStamp;
  /** The messages this turn added, so an aborted TurnEnd can keep them out of memory. */
  readonly added = new Set<Message>();

  constructor(state: SessionState, stamp: EventStamp) {
    this.#state = state;
    this.#stamp = stamp;
  }

  append(message: Message): void {
    this.added.add(message);
    appendMessage(this.#state, message);
  }

  async persist(...records: SessionRecordInit[]): Promise<AgentEvent[]> {
    const error = await this.#state.writer.write(...records);
    return error === undefined
      ? []
      : [this.#stamp.stamp({ type: 'Error', error: error.toJSON(), fatal: false })];
  }

  storeReply(
    reply: Reply,
    interruptedBy?: 'cancel' | 'error',
    providerMetadata?: Readonly<Record<string, unknown>>,
  ): Promise<AgentEvent[]> {
    const turnId = this.#stamp.turnId;
    const status = interruptedBy === undefined ? 'complete' : 'incomplete';
    const text = reply.text;
    this.append({
      role: 'assistant',
      content: text,
      ...(reply.reasoning === '' ? {} : { reasoning: reply.reasoning }),
      toolCalls: reply.calls,
      status,
      ...(providerMetadata === undefined ? {} : { providerMetadata }),
    });
    return this.persist(
      {
        type: 'assistant_message',
        turnId,
        content: text,
        ...(reply.reasoning === '' ? {} : { reasoning: reply.reasoning }),
        status,
        ...(interruptedBy === undefined ? {} : { interruptedBy }),
        ...(providerMetadata === undefined ? {} : { providerMetadata }),
      },
      ...reply.calls.map((call): SessionRecordInit => ({ type: 'tool_call', turnId, ...call })),
    );
  }

  storeResults(outcomes: readonly ToolCallOutcome[]): Promise<AgentEvent[]> {
    const turnId = this.#stamp.turnId;
    for (const outcome of outcomes) {
      this.append({
        role: 'tool',
        callId: outcome.callId,
        toolName: outcome.toolName,
        content: outcome.content,
        isError: outcome.isError,
      });
    }
    return this.persist(
      ...outcomes.map((outcome): SessionRecordInit => ({
        type: 'tool_result',
        turnId,
        callId: outcome.callId,
        toolName: outcome.toolName,
        content: outcome.content,
        isError: outcome.isError,
        durationMs: outcome.durationMs,
        ...(outcome.metadata === undefined ? {} : { metadata: outcome.metadata }),
      })),
    );
  }
}
