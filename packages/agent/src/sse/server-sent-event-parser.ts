import { createParser, type EventSourceParser } from 'eventsource-parser';

/** One dispatched server-sent event (WHATWG HTML §9.2 "event stream interpretation"). */
export interface ServerSentEvent {
  /** The `event:` field, or `'message'` when the event named none. */
  event: string;
  /** The `data:` lines joined with `\n`. */
  data: string;
  /** The last event ID the stream set, up to and including this event (the spec's `lastEventId`). */
  lastEventId?: string;
}

/** Receives each completed event's name (`'message'` when unnamed) and data. */
export type ServerSentEventVisitor = (event: string, data: string) => void;

const BYTE_ORDER_MARK = 0xfeff;

/**
 * An incremental server-sent events parser over `eventsource-parser`, the one SSE parser of the
 * codebase (the providers' model streams and `@youyou/client`'s workbench event streams both read
 * through it). Feed it text as it arrives, in pieces of any size; it returns the events completed
 * by each piece. Lines may end in CRLF, LF or CR, a CRLF may be split across pieces, a leading
 * byte-order mark is dropped, comments (heartbeats) are skipped, and an event cut off by the end
 * of the stream is never dispatched (as the specification says), which is how a dead stream
 * shows itself.
 *
 * Feed it decoded text: `TextDecoder` with `{ stream: true }` keeps multi-byte characters that
 * straddle network chunks intact (`readServerSentEvents` does that for a byte stream).
 *
 * @example
 * const parser = new ServerSentEventParser();
 * parser.push('data: hel');            // []
 * parser.push('lo\n\n');               // [{ event: 'message', data: 'hello' }]
 */
export class ServerSentEventParser {
  #lastEventId: string | undefined;
  #retry: number | undefined;
  #started = false;
  /** Where the events of the piece being parsed go. */
  #onEvent: ServerSentEventVisitor = () => undefined;
  readonly #onRetry: ((milliseconds: number) => void) | undefined;
  readonly #parser: EventSourceParser = createParser({
    onEvent: (message) => {
      // eventsource-parser reports each event's own id; the specification's last event ID carries on.
      if (message.id !== undefined) this.#lastEventId = message.id;
      this.#onEvent(message.event ?? 'message', message.data);
    },
    onRetry: (milliseconds) => {
      this.#retry = milliseconds;
      this.#onRetry?.(milliseconds);
    },
  });

  /** `onRetry` hears each reconnection time (`retry:`) the stream sets, in milliseconds. */
  constructor(options: { onRetry?: (milliseconds: number) => void } = {}) {
    this.#onRetry = options.onRetry;
  }

  /** Parses the next piece of text and returns the events it completed, in order. */
  push(text: string): ServerSentEvent[] {
    const events: ServerSentEvent[] = [];
    this.parse(text, (event, data) => {
      events.push(
        this.#lastEventId === undefined ? { event, data } : { event, data, lastEventId: this.#lastEventId },
      );
    });
    return events;
  }

  /**
   * Parses the next piece of text, calling `onEvent` with the name and data of each event it
   * completes, in order: `push` without an object per event, for the hot path.
   */
  parse(text: string, onEvent: ServerSentEventVisitor): void {
    if (text.length === 0) return;
    let input = text;
    if (!this.#started) {
      this.#started = true;
      // Text decoded by the caller may still start with the mark; the parser expects it gone.
      if (input.charCodeAt(0) === BYTE_ORDER_MARK) input = input.slice(1);
    }
    this.#onEvent = onEvent;
    this.#parser.feed(input);
  }

  /** The last event ID the stream set, if any. */
  get lastEventId(): string | undefined {
    return this.#lastEventId;
  }

  /** The reconnection time the stream asked for, if any. */
  get retry(): number | undefined {
    return this.#retry;
  }

  /** Forgets a partial line and event, e.g. before reusing the parser for a new stream. */
  reset(): void {
    this.#parser.reset();
    this.#lastEventId = undefined;
    this.#retry = undefined;
    this.#started = false;
  }
}
