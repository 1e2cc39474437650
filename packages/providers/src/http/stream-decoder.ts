import type { ChatEvent } from '@youyou/agent';

/**
 * Turns one provider's server-sent events into `ChatEvent`s. Synchronous and allocation-light:
 * it appends to the caller's array, so a whole network chunk is decoded without awaiting.
 */
export interface StreamDecoder {
  /** Handles one server-sent event (its name and data), appending the chat events it produced to `out`. */
  decode(event: string, data: string, out: ChatEvent[]): void;
  /** The body ended: appends the closing events — `done`, or an error when the reply is incomplete. */
  end(out: ChatEvent[]): void;
  /**
   * The server answered the streaming request with one whole JSON reply (a server that ignores
   * `stream: true`, or a proxy that buffers): appends the events of that reply, `done` included.
   */
  decodeComplete(body: string, out: ChatEvent[]): void;
  /** True once `done`, `error` or `context_length_exceeded` was produced; later events are ignored. */
  readonly finished: boolean;
}
