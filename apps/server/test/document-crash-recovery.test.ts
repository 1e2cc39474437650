import { expect, it } from 'vitest';
import type { DocumentView } from '@youyou/contracts';
import type { WorkbenchEvent } from '../src/events/index.ts';
import { callServer, type ChildServer } from './support/child-server.ts';
import { crashServers, describeKillNine } from './support/crash-servers.ts';
import { readEvents } from './support/sse.ts';

/** A Markdown file long enough that its parse is still going when the server is killed. */
const LARGE_MARKDOWN = Array.from(
  { length: 60_000 },
  (_, index) => `Paragraph ${index} of the long report, with a few words to parse.`,
).join('\n\n');

async function uploadLarge(server: ChildServer, conversationId: string): Promise<void> {
  const form = new FormData();
  form.set('file', new Blob([LARGE_MARKDOWN], { type: 'text/markdown' }), 'report.md');
  form.set('conversation_id', conversationId);
  const response = await fetch(`${server.url}/api/uploads`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}` },
    body: form,
  });
  expect(response.status).toBe(201);
}

function documentOf(event: WorkbenchEvent): DocumentView | undefined {
  return event.type === 'document.status'
    ? (event.payload as { document: DocumentView }).document
    : undefined;
}

async function settledDocument(server: ChildServer, id: string): Promise<DocumentView> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const view = await callServer<DocumentView>(server, 'GET', `/api/documents/${id}`);
    if (view.status !== 'queued' && view.status !== 'parsing') return view;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return callServer<DocumentView>(server, 'GET', `/api/documents/${id}`);
}

/** Kills `server` with SIGKILL while a large upload is `parsing`; the document's id and the last seq seen. */
async function killMidParse(
  server: ChildServer,
): Promise<{ conversationId: string; documentId: string; lastSeq: number }> {
  const conversation = await callServer<{ id: string }>(server, 'POST', '/api/conversations', {});
  const reading = readEvents({
    url: server.url,
    token: server.token,
    conversationId: conversation.id,
    after: 0,
    until: (event) => documentOf(event)?.status === 'parsing',
  });
  await uploadLarge(server, conversation.id);
  const received = await reading;
  await server.kill('SIGKILL');
  const parsing = documentOf(received.at(-1) as WorkbenchEvent) as DocumentView;
  return { conversationId: conversation.id, documentId: parsing.id, lastSeq: received.at(-1)?.seq ?? 0 };
}

// Up to three child servers start and a 60,000-paragraph file is parsed twice: slow on a shared machine.
describeKillNine('kill -9 mid-parse', (kind) => {
  const servers = crashServers({ kind });

  it('after a restart on the same data the document is parsed and usable, and retry is accepted', async () => {
    const first = await servers.start();
    const { documentId } = await killMidParse(first);
    const second = await servers.start();
    const view = await settledDocument(second, documentId);
    expect(['parsed', 'indexed']).toContain(view.status);
    expect(view.block_count).toBeGreaterThan(0);
    const blocks = await callServer<{ total: number }>(second, 'GET', `/api/documents/${documentId}/blocks`);
    expect(blocks.total).toBe(view.block_count);

    const retried = await callServer<DocumentView>(second, 'POST', `/api/documents/${documentId}/retry`);
    expect(retried.status).toBe('queued');
    expect(['parsed', 'indexed']).toContain((await settledDocument(second, documentId)).status);
    await second.kill('SIGTERM');
  }, 90_000);

  if (kind === 'postgres')
    it('two instances started together on one PostgreSQL after the crash: exactly one parses the document', async () => {
      const first = await servers.start();
      const { conversationId, documentId, lastSeq } = await killMidParse(first);
      const [b, c] = await Promise.all([servers.start(), servers.start()]);
      const view = await settledDocument(b, documentId);
      expect(['parsed', 'indexed']).toContain(view.status);
      const log = await callServer<{ events: WorkbenchEvent[] }>(
        b,
        'GET',
        `/api/conversations/${conversationId}/event-log?limit=5000`,
      );
      const parseStarts = log.events.filter(
        (event) =>
          event.seq > lastSeq && documentOf(event)?.status === 'parsing' && documentOf(event)?.progress === 0,
      );
      expect(parseStarts).toHaveLength(1);
      const takers = [b, c].filter((server) => server.logs().includes('queued again'));
      expect(takers).toHaveLength(1);
      await Promise.all([b.kill('SIGTERM'), c.kill('SIGTERM')]);
    }, 90_000);
});
