import type { WorkbenchStreamEvent } from '@youyou/contracts';
import type { WorkbenchStream } from './workbench-stream.ts';

const encoder = new TextEncoder();
/** Events a client may fall behind by before it is dropped (it reconnects and re-reads). */
const MAX_QUEUED = 1000;

/**
 * The workbench stream as SSE: a `stream.ready` event first (the client re-reads what it shows, so
 * a reconnect loses nothing), then each event as it is published, and a comment line every
 * `heartbeatMs` so proxies keep the connection.
 *
 * @example
 * return new Response(workbenchEventStream(stream, 15_000), { headers: { 'content-type': 'text/event-stream' } });
 */
export function workbenchEventStream(
  stream: WorkbenchStream,
  heartbeatMs: number,
): ReadableStream<Uint8Array> {
  let unsubscribe: (() => void) | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  const stop = (): void => {
    unsubscribe?.();
    clearInterval(heartbeat);
  };
  const frame = (event: WorkbenchStreamEvent): Uint8Array =>
    encoder.encode(`id: ${event.id}\ndata: ${JSON.stringify(event)}\n\n`);
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(
          frame({ id: 0, ts: new Date().toISOString(), v: 1, type: 'stream.ready', payload: {} }),
        );
        unsubscribe = stream.subscribe((event) => {
          if ((controller.desiredSize ?? 0) < -MAX_QUEUED) {
            stop();
            controller.error(new Error('The client stopped reading workbench events.'));
            return;
          }
          controller.enqueue(frame(event));
        });
        heartbeat = setInterval(() => {
          try {
            controller.enqueue(encoder.encode(': keep-alive\n\n'));
          } catch {
            stop();
          }
        }, heartbeatMs);
        heartbeat.unref();
      },
      cancel() {
        stop();
      },
    },
    { highWaterMark: 1 },
  );
}
