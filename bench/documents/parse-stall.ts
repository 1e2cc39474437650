// The server's responsiveness while documents are parsed (issue 31): a 230 MB-expanding docx (refused
// as too_large) and a 200,000-row xlsx are uploaded, and a client asks GET /api/health back to back
// the whole time; the largest gap between two answers is the longest the server stood still
// (target < 100 ms). SQLite, in this process's server; the parses run in the parse workers.
// The same probe runs first for as long with nothing parsed: the baseline of the same run, since on
// a shared machine the operating system alone deschedules a thread for tens of milliseconds. Each
// gap also records the main thread's own CPU time in it (`process.threadCpuUsage`): a gap the
// thread spent working is a stall of ours, one it spent waiting for a core is the machine's.
//
//   node --conditions=@youyou/source --import tsx bench/documents/parse-stall.ts [--rows 200000]
//     [--database-url postgres://postgres@127.0.0.1:5432/<an empty database>]   (default: SQLite)
//
// Prints the largest and p99 gaps and the largest on-CPU gap in ms, parsing and baseline.
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { startServer } from '@youyou/server';
import { documentFixtures } from '@youyou/testing/documents';

const { values } = parseArgs({
  options: { rows: { type: 'string', default: '200000' }, 'database-url': { type: 'string' } },
});
const fixtures = await documentFixtures({ logRows: Number(values.rows), bombBytes: 230 * 1000 * 1000 });
const folder = await mkdtemp(join(tmpdir(), 'youyou-bench-stall-'));
const server = await startServer({
  port: 0,
  home: folder,
  dataDirectory: join(folder, 'data'),
  workspaceRoots: [folder],
  logLevel: 'silent',
  ...(values['database-url'] === undefined ? {} : { databaseUrl: values['database-url'] }),
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
  interface Gaps {
    wall: number[];
    /** The main thread's CPU time within each gap, ms. */
    cpu: number[];
  }
  const probe = (running: () => boolean): Promise<Gaps> =>
    (async () => {
      const gaps: Gaps = { wall: [], cpu: [] };
      let last = performance.now();
      let lastCpu = process.threadCpuUsage();
      while (running()) {
        await (await fetch(`${server.url}/api/health`, { headers })).arrayBuffer();
        const now = performance.now();
        const cpu = process.threadCpuUsage(lastCpu);
        gaps.wall.push(now - last);
        gaps.cpu.push((cpu.user + cpu.system) / 1000);
        last = now;
        lastCpu = process.threadCpuUsage();
      }
      return gaps;
    })();
  const summary = (gaps: Gaps): string => {
    const wall = [...gaps.wall].sort((a, b) => a - b);
    const p99 = wall[Math.floor(wall.length * 0.99)] ?? Number.NaN;
    return `largest gap ${(wall.at(-1) ?? Number.NaN).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, largest on-CPU gap ${Math.max(...gaps.cpu).toFixed(1)} ms over ${wall.length} answers`;
  };
  let parsing = true;
  const started = performance.now();
  const during = probe(() => parsing);
  const bomb = await upload('bomb.docx', conversation.id);
  const sheet = await upload('stock.xlsx', conversation.id);
  const outcomes = [await settled(bomb), await settled(sheet)];
  parsing = false;
  const parsingGaps = await during;
  const parseMs = performance.now() - started;
  // The baseline: the same probe for as long, nothing parsed.
  const baselineEnds = performance.now() + parseMs;
  const baselineGaps = await probe(() => performance.now() < baselineEnds);
  process.stdout.write(
    `bomb: ${outcomes[0]}, sheet (${values.rows} rows): ${outcomes[1]} in ${(parseMs / 1000).toFixed(1)} s\n` +
      `while parsing: ${summary(parsingGaps)}\n` +
      `baseline (nothing parsed, as long): ${summary(baselineGaps)}\n` +
      `1-minute load average ${loadavg()[0]?.toFixed(2)}\n`,
  );
} finally {
  await server.close();
  await rm(folder, { recursive: true, force: true });
}
