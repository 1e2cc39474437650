/** Receives each completed event's name (`'message'` when unnamed) and data. */
export type SseVisitor = (event: string, data: string) => void;

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
const BLANK_LINE = '\n\n';

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
    this.parse(text, (event, data) => {
      events.push(this.#event(event, data));
    });
    return events;
  }

  /**
   * Parses the next piece of text, calling `onEvent` with the name and data of each event it
   * completes, in order: `push` without an object per event, for the hot path.
   */
  parse(text: string, onEvent: SseVisitor): void {
    if (text.length === 0) return;
    let input = text;
    if (!this.#started) {
      this.#started = true;
      if (input.charCodeAt(0) === 0xfeff) input = input.slice(1);
    }
    if (this.#skipLineFeed) {
      this.#skipLineFeed = false;
      if (input.charCodeAt(0) === 10) input = input.slice(1);
    }
    input = this.#pending + input;
    this.#pending = '';
    if (input.indexOf(CARRIAGE_RETURN) === -1) this.#pushBlocks(input, onEvent);
    else this.#pushLines(input, onEvent);
  }

  /** The last event ID the stream set, if any. */
  get lastEventId(): string | undefined {
    return this.#lastEventId;
  }

  /** The reconnection time the stream asked for, if any. */
  get retry(): number | undefined {
    return this.#retry;
  }

  /**
   * LF-only text, as nearly every server sends: the engine's native split at blank lines is the
   * fastest way to whole events, and most events are one `data:` line.
   */
  #pushBlocks(input: string, onEvent: SseVisitor): void {
    // Text that starts with a line feed starts with a blank line: the line before it ended in the
    // previous piece (parsed line by line), so the split below would not see this event's end.
    let start = 0;
    while (input.charCodeAt(start) === 10) {
      this.#dispatch(onEvent);
      start += 1;
    }
    const blocks = (start === 0 ? input : input.slice(start)).split(BLANK_LINE);
    this.#pending = blocks.pop() ?? '';
    for (const block of blocks) {
      if (this.#isClean()) {
        // The shapes of nearly every event: `data: …` alone, or `event: …` then `data: …`.
        const firstLineEnd = block.indexOf(LINE_FEED);
        if (firstLineEnd === -1 && isDataLine(block, 0, block.length)) {
          onEvent('message', dataValue(block, 0, block.length));
          continue;
        }
        if (
          firstLineEnd !== -1 &&
          isEventLine(block, 0, firstLineEnd) &&
          isDataLine(block, firstLineEnd + 1, block.length) &&
          block.indexOf(LINE_FEED, firstLineEnd + 1) === -1
        ) {
          const name = fieldValue(block, 6, firstLineEnd);
          onEvent(name || 'message', dataValue(block, firstLineEnd + 1, block.length));
          continue;
        }
      }
      let lineStart = 0;
      for (;;) {
        const lineEnd = block.indexOf(LINE_FEED, lineStart);
        if (lineEnd === -1) break;
        this.#processLine(block, lineStart, lineEnd, onEvent);
        lineStart = lineEnd + 1;
      }
      this.#processLine(block, lineStart, block.length, onEvent);
      this.#dispatch(onEvent);
    }
  }

  /** Any mix of CRLF, LF and CR, line by line. */
  #pushLines(input: string, onEvent: SseVisitor): void {
    let position = 0;
    // indexOf scans are cached so the text is not rescanned once per line.
    let nextLineFeed = input.indexOf(LINE_FEED);
    let nextCarriageReturn = input.indexOf(CARRIAGE_RETURN);
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
        this.#pending = input.slice(position);
        return;
      }
      const lineStart = position;
      position = end + 1;
      if (end === nextCarriageReturn) {
        if (position === input.length) this.#skipLineFeed = true;
        else if (input.charCodeAt(position) === 10) position += 1;
      }
      this.#processLine(input, lineStart, end, onEvent);
    }
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

  /** Handles the line `source[start, end)`; lines are not sliced out, to spare an allocation each. */
  #processLine(source: string, start: number, end: number, onEvent: SseVisitor): void {
    if (start === end) {
      this.#dispatch(onEvent);
      return;
    }
    const first = source.charCodeAt(start);
    if (first === 58) return;
    // The hot paths: `data:` and `event:` lines, nearly every line of a model stream.
    if (isDataLine(source, start, end)) {
      const value = dataValue(source, start, end);
      this.#data = this.#hasData ? `${this.#data}\n${value}` : value;
      this.#hasData = true;
      return;
    }
    if (isEventLine(source, start, end)) {
      this.#eventType = fieldValue(source, start + 6, end);
      return;
    }
    let colon = source.indexOf(':', start);
    if (colon >= end) colon = -1;
    const field = source.slice(start, colon === -1 ? end : colon);
    let value = '';
    if (colon !== -1) {
      const valueStart = source.charCodeAt(colon + 1) === 32 && colon + 1 < end ? colon + 2 : colon + 1;
      value = source.slice(valueStart, end);
    }
    switch (field) {
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

  /** True when no line of an unfinished event has been read (no data, name, or new id/retry). */
  #isClean(): boolean {
    return !this.#hasData && this.#eventType === '';
  }

  #event(name: string, data: string): SseEvent {
    const event: SseEvent = { event: name, data };
    if (this.#lastEventId !== undefined) event.id = this.#lastEventId;
    if (this.#retry !== undefined) event.retry = this.#retry;
    return event;
  }

  #dispatch(onEvent: SseVisitor): void {
    if (this.#hasData) onEvent(this.#eventType || 'message', this.#data);
    this.#data = '';
    this.#hasData = false;
    this.#eventType = '';
  }
}

/** `source[start, end)` is a `data` field line (`data`, `data:…`). */
function isDataLine(source: string, start: number, end: number): boolean {
  return (
    end - start >= 4 &&
    source.charCodeAt(start) === 100 &&
    source.charCodeAt(start + 1) === 97 &&
    source.charCodeAt(start + 2) === 116 &&
    source.charCodeAt(start + 3) === 97 &&
    (end === start + 4 || source.charCodeAt(start + 4) === 58)
  );
}

/** `source[start, end)` is an `event` field line with a colon (`event:…`). */
function isEventLine(source: string, start: number, end: number): boolean {
  return (
    end - start >= 6 &&
    source.charCodeAt(start) === 101 &&
    source.charCodeAt(start + 5) === 58 &&
    source.charCodeAt(start + 1) === 118 &&
    source.charCodeAt(start + 2) === 101 &&
    source.charCodeAt(start + 3) === 110 &&
    source.charCodeAt(start + 4) === 116
  );
}

/** The value of the `data` line at `source[start, end)`. */
function dataValue(source: string, start: number, end: number): string {
  return end === start + 4 ? '' : fieldValue(source, start + 5, end);
}

/** The text from `valueStart` to `end`, less one leading space. */
function fieldValue(source: string, valueStart: number, end: number): string {
  const from = valueStart < end && source.charCodeAt(valueStart) === 32 ? valueStart + 1 : valueStart;
  return from >= end ? '' : source.slice(from, end);
}
