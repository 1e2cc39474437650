// Upload → indexed latency (issue 25): a ~20 KB Word file (made by `docx`, the fixture generator's
// scaled document) is uploaded in a project conversation over HTTP, and the time until the
// conversation's event stream says its document is `indexed` (parsed, chunked and in the
// project's full-text index) is measured — the event the web UI's Documents tab waits for — on
// SQLite and, when reachable, PostgreSQL. Nothing polls, so the measurement adds no load of its own.
//
//   node --conditions=@youyou/source --import tsx bench/documents/upload-indexed.ts [--rounds 40]
//
// Prints a markdown table on stdout.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { readConversationEvents } from '@youyou/client';
import { startServer, type RunningServer } from '@youyou/server';
import { scaledFixtures } from '@youyou/testing/documents';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '40' } } });
const rounds = Number(values.rounds);
const DATABASE_URL =
  process.env['YOUYOU_BENCH_DATABASE_URL'] ??
  process.env['YOUYOU_TEST_DATABASE_URL'] ??
  'postgres://postgres@127.0.0.1:5432/test';

async function call<T>(
  server: RunningServer,
  method: string,
  path: string,
  body?: Blob | FormData,
): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${server.token}` },
    ...(body === undefined ? {} : { body }),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${String(response.status)} ${await response.text()}`);
  return (await response.json()) as T;
}

function percentile(samples: readonly number[], fraction: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}

/** A fresh schema on the benchmark PostgreSQL, or undefined when it cannot be reached. */
async function postgresSchema(): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  const name = `bench_upload_${String(process.pid)}`;
  const client = new pg.Client({ connectionString: DATABASE_URL });
  try {
    await client.connect();
    await client.query(`create schema ${name}`);
  } catch {
    await client.end().catch(() => {});
    return undefined;
  }
  const url = new URL(DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${name},public`);
  return {
    url: url.toString(),
    drop: async () => {
      await client.query(`drop schema ${name} cascade`);
      await client.end();
    },
  };
}

const found = (await scaledFixtures(900)).find((fixture) => fixture.format === 'docx');
if (found === undefined) throw new Error('no docx fixture');
const docx = found;

async function measure(databaseUrl: string | undefined): Promise<number[]> {
  const folder = await mkdtemp(join(tmpdir(), 'youyou-bench-upload-'));
  const server = await startServer({
    port: 0,
    home: folder,
    dataDirectory: join(folder, 'data'),
    workspaceRoots: [folder],
    logLevel: 'silent',
    ...(databaseUrl === undefined ? {} : { databaseUrl }),
  });
  try {
    const json = (value: unknown): Blob => new Blob([JSON.stringify(value)], { type: 'application/json' });
    const project = await call<{ id: string }>(server, 'POST', '/api/projects', json({ name: 'bench' }));
    const conversation = await call<{ id: string }>(
      server,
      'POST',
      '/api/conversations',
      json({ project_id: project.id }),
    );
    // Uploads whose document the stream has said is indexed, and the round waiting for one.
    const indexed = new Set<string>();
    const waiting = new Map<string, () => void>();
    const events = new AbortController();
    const reading = (async () => {
      for await (const event of readConversationEvents({
        baseUrl: server.url,
        token: server.token,
        conversationId: conversation.id,
        after: 0,
        signal: events.signal,
      })) {
        if (event.type !== 'document.status') continue;
        const { document } = event.payload;
        if (document.upload_id === null) continue;
        if (document.status === 'failed') throw new Error(`the upload failed: ${JSON.stringify(document)}`);
        if (document.status !== 'indexed') continue;
        indexed.add(document.upload_id);
        waiting.get(document.upload_id)?.();
      }
    })().catch((error: unknown) => {
      if (!events.signal.aborted) throw error;
    });
    const samples: number[] = [];
    for (let round = -3; round < rounds; round++) {
      const form = new FormData();
      form.set('file', new Blob([new Uint8Array(docx.bytes)], { type: docx.media_type }), `r${round}.docx`);
      form.set('project_id', project.id);
      form.set('conversation_id', conversation.id);
      const started = performance.now();
      const upload = await call<{ id: string }>(server, 'POST', '/api/uploads', form);
      if (!indexed.has(upload.id)) await new Promise<void>((resolve) => waiting.set(upload.id, resolve));
      const elapsed = performance.now() - started;
      waiting.delete(upload.id);
      // The first rounds load the parser and warm the caches.
      if (round >= 0) samples.push(elapsed);
    }
    events.abort();
    await reading;
    return samples;
  } finally {
    await server.close();
    await rm(folder, { recursive: true, force: true });
  }
}

const rows: string[] = [];
const sqlite = await measure(undefined);
rows.push(`| SQLite | ${percentile(sqlite, 0.5).toFixed(1)} | ${percentile(sqlite, 0.95).toFixed(1)} |`);
const schema = await postgresSchema();
if (schema === undefined) rows.push('| PostgreSQL | skipped (unreachable) | |');
else {
  try {
    const postgres = await measure(schema.url);
    rows.push(
      `| PostgreSQL | ${percentile(postgres, 0.5).toFixed(1)} | ${percentile(postgres, 0.95).toFixed(1)} |`,
    );
  } finally {
    await schema.drop();
  }
}

process.stdout.write(
  [
    `A ${(docx.bytes.length / 1024).toFixed(1)} KB docx uploaded into a project, ${rounds} rounds after 3 warm-ups; Node ${process.version}.`,
    '',
    '| database | upload → indexed p50 (ms) | p95 (ms) |',
    '| --- | ---: | ---: |',
    ...rows,
    '',
  ].join('\n'),
);
