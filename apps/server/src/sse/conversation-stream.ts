import type { EventHub, EventLog, WorkbenchEvent } from '../events/index.ts';

/** Events per read and per SSE chunk. */
const PAGE = 500;

export interface ConversationStreamOptions {
  eventLog: EventLog;
  hub: EventHub;
  conversationId: string;
  /** Stream events after this seq (`Last-Event-ID`). */
  afterSeq: number;
  /** A comment line this often keeps proxies and clients from timing out. */
  heartbeatMs: number;
  /** A client that has not taken data for this long while events wait is dropped; it can resume. */
  stallTimeoutMs: number;
  /** The conversation's current last seq, or undefined once it is gone (the stream then ends). */
  lastSeq: () => Promise<number | undefined>;
  onClose?: (reason: 'client' | 'stalled' | 'gone' | 'error') => void;
  /**
   * Cuts the connection of a client that stopped reading. Erroring the stream alone is not enough:
   * the server waits for the socket to drain before it reads the stream again.
   */
  disconnect?: () => void;
}

const encoder = new TextEncoder();

/**
 * One SSE frame per event: `id` is the seq, so `Last-Event-ID` resumes after it.
 *
 * @example
 * controller.enqueue(encodeEvents(events)); // id: 42\ndata: {…}\n\n
 */
export function encodeEvents(events: readonly WorkbenchEvent[]): Uint8Array {
  let text = '';
  for (const event of events) text += `id: ${event.seq}\ndata: ${JSON.stringify(event)}\n\n`;
  return encoder.encode(text);
}

/**
 * A conversation's events as an SSE byte stream: persisted first, then pushed (spec §4.2). It is
 * pull-driven: the server reads the next events only when the client has taken the previous ones,
 * from memory when they are recent, else from the database, so a slow client costs a cursor, not
 * a buffer; one that stops reading while events wait is dropped and resumes with
 * `Last-Event-ID`, losing and repeating nothing.
 *
 * @example
 * return new Response(conversationEventStream({ eventLog, hub, conversationId, afterSeq, … }), { headers });
 */
export function conversationEventStream(options: ConversationStreamOptions): ReadableStream<Uint8Array> {
  const { eventLog, hub, conversationId } = options;
  let cursor = options.afterSeq;
  let known = options.afterSeq;
  let wake: (() => void) | undefined;
  let closed = false;
  let stallTimer: NodeJS.Timeout | undefined;
  let lastBeat = Date.now();

  const signal = (): void => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  const unsubscribe = hub.subscribe(conversationId, (lastSeq) => {
    if (lastSeq > known) known = lastSeq;
    const waiting = wake !== undefined;
    signal();
    // Events wait and the client is not pulling: start the clock on it.
    if (!waiting && stallTimer === undefined && !closed) {
      stallTimer = setTimeout(() => finish('stalled'), options.stallTimeoutMs);
      stallTimer.unref();
    }
  });
  let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined;

  function finish(reason: 'client' | 'stalled' | 'gone' | 'error'): void {
    if (closed) return;
    closed = true;
    clearTimeout(stallTimer);
    unsubscribe();
    signal();
    options.onClose?.(reason);
    try {
      // A client that stopped reading is cut off (it resumes with Last-Event-ID); a deleted
      // conversation ends its stream cleanly.
      if (reason === 'stalled') {
        if (options.disconnect === undefined)
          controllerRef?.error(new Error('The client stopped reading events.'));
        else {
          options.disconnect();
          controllerRef?.close();
        }
      }
      if (reason === 'gone') controllerRef?.close();
    } catch {
      // already closed
    }
  }

  /** Streamable events after the cursor: from memory when it has them all, else from the database. */
  async function nextEvents(target: number): Promise<WorkbenchEvent[]> {
    const recent = hub.since(conversationId, cursor, PAGE);
    // Memory may lack events another server committed: an empty answer is checked in the database.
    if (recent !== undefined && (recent.length > 0 || target <= cursor)) return recent;
    return eventLog.read(conversationId, { afterSeq: cursor, limit: PAGE });
  }

  /** Waits for a notification or the next heartbeat. */
  function waitForEvents(): Promise<'event' | 'beat'> {
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => {
          wake = undefined;
          resolve('beat');
        },
        Math.max(0, options.heartbeatMs - (Date.now() - lastBeat)),
      );
      timer.unref();
      wake = () => {
        clearTimeout(timer);
        resolve('event');
      };
    });
  }

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controllerRef = controller;
        controller.enqueue(encoder.encode('retry: 1000\n: connected\n\n'));
      },
      async pull(controller) {
        clearTimeout(stallTimer);
        stallTimer = undefined;
        try {
          while (!closed) {
            const target = known;
            const events = await nextEvents(target);
            const last = events.at(-1);
            if (last !== undefined) {
              cursor = last.seq;
              if (cursor > known) known = cursor;
              controller.enqueue(encodeEvents(events));
              return;
            }
            // Nothing to send up to a seq committed before the read: those were internal events.
            if (target > cursor) cursor = target;
            // More was committed while reading.
            if (known > cursor) continue;
            if ((await waitForEvents()) === 'event' || closed) continue;
            lastBeat = Date.now();
            // The heartbeat also catches events whose notification was lost.
            const current = await options.lastSeq();
            if (current === undefined) return finish('gone');
            if (current > cursor) {
              known = Math.max(known, current);
              continue;
            }
            controller.enqueue(encoder.encode(': ping\n\n'));
            return;
          }
        } catch (error) {
          finish('error');
          controller.error(error);
        }
      },
      cancel() {
        finish('client');
      },
    },
    { highWaterMark: 1 },
  );
}
