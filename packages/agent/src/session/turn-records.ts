import type { ImageBlock } from '../content/index.ts';
import { IMAGE_TOKEN_ESTIMATE } from '../context/index.ts';
import type { AgentEvent, EventStamp } from '../events/index.ts';
import type { Reply } from '../model-call/index.ts';
import type { Message, ToolResultMessage } from '../provider/index.ts';
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
  /**
   * Images this turn's tool results returned, by their message (decision 0046): the context and
   * the log keep the text only; the turn's requests carry the images.
   */
  readonly #images = new Map<Message, readonly ImageBlock[]>();

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

  /** Estimated tokens of the images the turn's requests carry besides the context. */
  get imageTokens(): number {
    let count = 0;
    for (const images of this.#images.values()) count += images.length;
    return count * IMAGE_TOKEN_ESTIMATE;
  }

  /**
   * The messages of a request: the context's, with this turn's tool images put back on their
   * results. A message compaction removed takes its images with it.
   */
  withImages(messages: readonly Message[]): readonly Message[] {
    if (this.#images.size === 0) return messages;
    return messages.map((message) => {
      const images = this.#images.get(message);
      return images === undefined ? message : { ...(message as ToolResultMessage), images };
    });
  }

  /** `keepImages`: the model takes images, so the results' images go into this turn's requests. */
  storeResults(outcomes: readonly ToolCallOutcome[], keepImages = false): Promise<AgentEvent[]> {
    const turnId = this.#stamp.turnId;
    for (const outcome of outcomes) {
      const message: ToolResultMessage = {
        role: 'tool',
        callId: outcome.callId,
        toolName: outcome.toolName,
        content: outcome.content,
        isError: outcome.isError,
      };
      this.append(message);
      if (keepImages && outcome.images !== undefined && outcome.images.length > 0)
        this.#images.set(message, outcome.images);
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
