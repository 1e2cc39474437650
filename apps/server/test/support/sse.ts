import type { WorkbenchEvent } from '../../src/events/index.ts';

export interface SseReadOptions {
  url: string;
  token: string;
  conversationId: string;
  after: number;
  /** Stop reading (and close the connection) once this returns true. */
  until: (event: WorkbenchEvent, received: readonly WorkbenchEvent[]) => boolean;
  timeoutMs?: number;
  headers?: Record<string, string>;
}

/**
 * Reads a conversation's SSE stream until `until` says stop, then drops the connection: a client
 * going away at that point.
 */
export async function readEvents(options: SseReadOptions): Promise<WorkbenchEvent[]> {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new Error('SSE read timed out')),
    options.timeoutMs ?? 15_000,
  );
  const received: WorkbenchEvent[] = [];
  let stopped = false;
  try {
    const response = await fetch(`${options.url}/api/conversations/${options.conversationId}/events`, {
      headers: {
        authorization: `Bearer ${options.token}`,
        'last-event-id': String(options.after),
        ...options.headers,
      },
      signal: controller.signal,
    });
    if (!response.ok || response.body === null)
      throw new Error(`SSE answered ${response.status}: ${await response.text()}`);
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      let boundary = buffer.indexOf('\n\n');
      while (boundary >= 0) {
        const frame = buffer.slice(0, boundary);
        buffer = buffer.slice(boundary + 2);
        const data = frame
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice(6))
          .join('\n');
        if (data !== '') {
          const event = JSON.parse(data) as WorkbenchEvent;
          received.push(event);
          if (options.until(event, received)) {
            stopped = true;
            controller.abort();
            return received;
          }
        }
        boundary = buffer.indexOf('\n\n');
      }
    }
    return received;
  } catch (error) {
    if (stopped) return received;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** True for a run's last event. */
export function isRunEnd(event: WorkbenchEvent, runId?: string): boolean {
  return (
    (runId === undefined || event.run_id === runId) &&
    (event.type === 'run.completed' ||
      event.type === 'run.failed' ||
      event.type === 'run.cancelled' ||
      event.type === 'run.interrupted')
  );
}
