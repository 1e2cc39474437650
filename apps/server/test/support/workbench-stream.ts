import type { WorkbenchStreamEvent } from '@youyou/contracts';
import type { TestServer } from './test-server.ts';

/** Reads the workbench stream until `count` events other than `stream.ready` arrived. */
export async function collectWorkbenchEvents(
  server: TestServer,
  count: number,
  action: () => Promise<unknown>,
): Promise<WorkbenchStreamEvent[]> {
  const controller = new AbortController();
  const response = await fetch(`${server.url}/api/events`, {
    headers: { authorization: `Bearer ${server.token}` },
    signal: controller.signal,
  });
  if (response.body === null) throw new Error('no body');
  const events: WorkbenchStreamEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  let acted = false;
  try {
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = frame
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice(6))
          .join('\n');
        if (data === '') continue;
        const event = JSON.parse(data) as WorkbenchStreamEvent;
        if (event.type === 'stream.ready') {
          if (!acted) {
            acted = true;
            await action();
          }
          continue;
        }
        events.push(event);
      }
      if (events.length >= count) break;
    }
  } finally {
    controller.abort();
  }
  return events;
}
