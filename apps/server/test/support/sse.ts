import { readConversationEvents } from '@youyou/client';
import type { WorkbenchEvent } from '@youyou/contracts';

export interface SseReadOptions {
  url: string;
  token: string;
  conversationId: string;
  after: number;
  /** Stop reading (and close the connection) once this returns true. */
  until: (event: WorkbenchEvent, received: readonly WorkbenchEvent[]) => boolean;
  timeoutMs?: number;
}

/**
 * Reads a conversation's SSE stream through `@youyou/client` (one connection, no reconnect) until
 * `until` says stop, then drops the connection: a client going away at that point.
 */
export async function readEvents(options: SseReadOptions): Promise<WorkbenchEvent[]> {
  const signal = AbortSignal.timeout(options.timeoutMs ?? 15_000);
  const received: WorkbenchEvent[] = [];
  for await (const event of readConversationEvents({
    baseUrl: options.url,
    token: options.token,
    conversationId: options.conversationId,
    after: options.after,
    reconnect: false,
    signal,
  })) {
    received.push(event);
    if (options.until(event, received)) return received;
  }
  if (signal.aborted) throw new Error('SSE read timed out');
  return received;
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
