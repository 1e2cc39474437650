// The server's responsiveness while documents are parsed (issue 31): a 230 MB-expanding docx (refused
// as too_large) and a 200,000-row xlsx are uploaded, and a client asks GET /api/health back to back
// the whole time; the largest gap between two answers is the longest the server stood still
// (target < 100 ms). SQLite, in this process's server; the parses run in the parse workers.
//
//   node --conditions=@youyou/source --import tsx bench/documents/parse-stall.ts [--rows 200000]
//
// Prints the largest and p99 gaps in ms.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { startServer } from '@youyou/server';
import { documentFixtures } from '@youyou/testing/documents';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '200000' } } });
const fixtures = await documentFixtures({ logRows: Number(values.rows), bombBytes: 230 * 1000 * 1000 });
const folder = await mkdtemp(join(tmpdir(), 'youyou-bench-stall-'));
const server = await startServer({
  port: 0,
  home: folder,
  dataDirectory: join(folder, 'data'),
  workspaceRoots: [folder],
  logLevel: 'silent',
});
const headers = { authorization: `Bearer ${server.token}` };

async function upload(name: string, conversationId: string): Promise<string> {
  const fixture = fixtures.get(name);
  if (fixture === undefined) throw new Error(`no fixture ${name}`);
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(fixture.bytes)], { type: fixture.media_type }), fixture.name);
  form.set('conversation_id', conversationId);
  const response = await fetch(`${server.url}/api/uploads`, { method: 'POST', headers, body: form });
  return ((await response.json()) as { id: string }).id;
}

async function settled(uploadId: string): Promise<string> {
  for (;;) {
    const response = await fetch(`${server.url}/api/uploads/${uploadId}/document`, { headers });
    const body = (await response.json()) as { status?: string; failure?: { reason: string } | null };
    if (response.ok && body.status !== 'queued' && body.status !== 'parsing')
      return body.failure?.reason ?? String(body.status);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

try {
  const conversation = (await (
    await fetch(`${server.url}/api/conversations`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{}',
    })
  ).json()) as { id: string };
  const gaps: number[] = [];
  let parsing = true;
  const probe = (async () => {
    let last = performance.now();
    while (parsing) {
      await (await fetch(`${server.url}/api/health`, { headers })).arrayBuffer();
      const now = performance.now();
      gaps.push(now - last);
      last = now;
    }
  })();
  const bomb = await upload('bomb.docx', conversation.id);
  const sheet = await upload('stock.xlsx', conversation.id);
  const outcomes = [await settled(bomb), await settled(sheet)];
  parsing = false;
  await probe;
  gaps.sort((a, b) => a - b);
  const p99 = gaps[Math.floor(gaps.length * 0.99)] ?? Number.NaN;
  process.stdout.write(
    `bomb: ${outcomes[0]}, sheet (${values.rows} rows): ${outcomes[1]}\n` +
      `largest gap ${(gaps.at(-1) ?? Number.NaN).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms over ${gaps.length} answers\n`,
  );
} finally {
  await server.close();
  await rm(folder, { recursive: true, force: true });
}
