import type { WorkbenchEvent } from '@youyou/contracts';
import { readConversationEvents, type ConversationEventsOptions } from './conversation-events.ts';

export interface EventStreamOptions extends Omit<ConversationEventsOptions, 'signal'> {
  onEvent: (event: WorkbenchEvent) => void;
  /** The stream ended for good with an error (the conversation is gone, the token is wrong). */
  onError?: (error: unknown) => void;
}

/** A live event subscription; `close()` ends it for good. */
export interface EventStream {
  /** The seq of the last event delivered. */
  readonly lastSeq: number;
  close(): void;
}

/**
 * `readConversationEvents` for callback code (a UI store): delivers each event to `onEvent`
 * until `close()`.
 *
 * @example
 * const stream = openEventStream({ conversationId, after: query.last_seq, onEvent: (event) => store.apply(event) });
 * stream.close();
 */
export function openEventStream(options: EventStreamOptions): EventStream {
  const controller = new AbortController();
  let lastSeq = options.after;
  const { onEvent, onError, ...reading } = options;
  void (async () => {
    try {
      for await (const event of readConversationEvents({ ...reading, signal: controller.signal })) {
        lastSeq = event.seq;
        onEvent(event);
      }
    } catch (error) {
      onError?.(error);
    }
  })();
  return {
    get lastSeq() {
      return lastSeq;
    },
    close: () => controller.abort(),
  };
}
