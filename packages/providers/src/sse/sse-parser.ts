/** One dispatched server-sent event (WHATWG HTML §9.2 "event stream interpretation"). */
export interface SseEvent {
  /** The `event:` field, or `'message'` when the event named none. */
  event: string;
  /** The `data:` lines joined with `\n`. */
  data: string;
  /** The last event ID seen on the stream so far, when the server sent one. */
  id?: string;
  /** A reconnection time the server asked for, in milliseconds. */
  retry?: number;
}

const LINE_FEED = '\n';
const CARRIAGE_RETURN = '\r';

/**
 * An incremental server-sent events parser. Feed it text as it arrives, in pieces of any size;
 * it returns the events completed by each piece. Lines may end in CRLF, LF or CR, a CRLF may be
 * split across pieces, comments are skipped, and an event cut off by the end of the stream is
 * never dispatched (as the specification says), which is how a dead stream shows itself.
 *
 * Feed it decoded text: `TextDecoder` with `{ stream: true }` keeps multi-byte characters that
 * straddle network chunks intact.
 *
 * @example
 * const parser = new SseParser();
 * parser.push('data: hel');            // []
 * parser.push('lo\n\n');               // [{ event: 'message', data: 'hello' }]
 */
export class SseParser {
  #pending = '';
  #data = '';
  #hasData = false;
  #eventType = '';
  #lastEventId: string | undefined;
  #retry: number | undefined;
  #skipLineFeed = false;
  #started = false;

  /** Parses the next piece of text and returns the events it completed, in order. */
  push(text: string): SseEvent[] {
    const events: SseEvent[] = [];
    if (text.length === 0) return events;
    let input = text;
    if (!this.#started) {
      this.#started = true;
      if (input.charCodeAt(0) === 0xfeff) input = input.slice(1);
    }
    let position = 0;
    if (this.#skipLineFeed) {
      this.#skipLineFeed = false;
      if (input.startsWith(LINE_FEED)) position = 1;
    }
    // indexOf scans are cached so a piece without any CR is not rescanned once per line.
    let nextLineFeed = input.indexOf(LINE_FEED, position);
    let nextCarriageReturn = input.indexOf(CARRIAGE_RETURN, position);
    while (position < input.length) {
      if (nextLineFeed !== -1 && nextLineFeed < position) nextLineFeed = input.indexOf(LINE_FEED, position);
      if (nextCarriageReturn !== -1 && nextCarriageReturn < position) {
        nextCarriageReturn = input.indexOf(CARRIAGE_RETURN, position);
      }
      let end: number;
      if (nextLineFeed === -1) end = nextCarriageReturn;
      else if (nextCarriageReturn === -1) end = nextLineFeed;
      else end = Math.min(nextLineFeed, nextCarriageReturn);
      if (end === -1) {
        this.#pending += input.slice(position);
        return events;
      }
      let line = input.slice(position, end);
      if (this.#pending.length > 0) {
        line = this.#pending + line;
        this.#pending = '';
      }
      position = end + 1;
      if (end === nextCarriageReturn) {
        if (position === input.length) this.#skipLineFeed = true;
        else if (input.charCodeAt(position) === 10) position += 1;
      }
      this.#processLine(line, events);
    }
    return events;
  }

  /** Forgets a partial line and event, e.g. before reusing the parser for a new stream. */
  reset(): void {
    this.#pending = '';
    this.#data = '';
    this.#hasData = false;
    this.#eventType = '';
    this.#lastEventId = undefined;
    this.#retry = undefined;
    this.#skipLineFeed = false;
    this.#started = false;
  }

  #processLine(line: string, events: SseEvent[]): void {
    if (line.length === 0) {
      this.#dispatch(events);
      return;
    }
    const colon = line.indexOf(':');
    if (colon === 0) return;
    let field: string;
    let value: string;
    if (colon === -1) {
      field = line;
      value = '';
    } else {
      field = line.slice(0, colon);
      const valueStart = line.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1;
      value = line.slice(valueStart);
    }
    switch (field) {
      case 'data':
        this.#data = this.#hasData ? `${this.#data}\n${value}` : value;
        this.#hasData = true;
        break;
      case 'event':
        this.#eventType = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.#lastEventId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.#retry = Number(value);
        break;
      default:
        break;
    }
  }

  #dispatch(events: SseEvent[]): void {
    if (this.#hasData) {
      const event: SseEvent = { event: this.#eventType || 'message', data: this.#data };
      if (this.#lastEventId !== undefined) event.id = this.#lastEventId;
      if (this.#retry !== undefined) event.retry = this.#retry;
      events.push(event);
    }
    this.#data = '';
    this.#hasData = false;
    this.#eventType = '';
  }
}
