/**
 * Resuming an SSE stream with Last-Event-ID in a conversation of 100,000 stored events, on SQLite
 * and PostgreSQL: time to the first event, and to catch up 1,000 / 50,000 / all events.
 *   node --import tsx bench/server/resume-latency.ts [--events 100000]
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { BUNDLE_FILE, buildServerBundle, migrateToLatest, openDatabase } from '@youyou/server';
import { seedConversation } from '@youyou/server/testing';
import {
  clientOf,
  format,
  median,
  percentile,
  postgresSchema,
  startServerChild,
  streamEvents,
  temporaryFolder,
  type ServerChild,
} from './support.ts';

const { values } = parseArgs({ options: { events: { type: 'string', default: '100000' } } });
const target = Number(values.events);
/** Events a seeded exchange writes (run.created, two run.phase, message.delta, two session.record, run.completed). */
const EVENTS_PER_EXCHANGE = 7;

interface Row {
  database: string;
  stored: number;
  firstEvent: number[];
  catchUp1k: number[];
  catchUp50k: number[];
  replay: number[];
  streamed: number;
}

/** Resumes after `after` and reads until `lastSeq`; returns the time to the first event and to the end. */
async function resume(server: ServerChild, conversationId: string, after: number, lastSeq: number) {
  const started = performance.now();
  let first = 0;
  let count = 0;
  const { endedAt } = await streamEvents(
    `${server.url}/api/conversations/${conversationId}/events`,
    server.token,
    after,
    (event) => {
      if (first === 0) first = performance.now();
      count++;
      return event.seq >= lastSeq;
    },
  );
  return { first: first - started, total: endedAt - started, count };
}

const folder = await temporaryFolder('resume');
await buildServerBundle();
const postgres = await postgresSchema();
const rows: Row[] = [];
try {
  for (const database of ['sqlite', 'postgres'] as const) {
    if (database === 'postgres' && postgres === undefined) continue;
    const dataDirectory = join(folder.path, `data-${database}`);
    const opened = openDatabase(
      database === 'postgres'
        ? { databaseUrl: postgres?.url as string }
        : { sqliteFile: join(dataDirectory, 'youyou.db') },
    );
    await migrateToLatest(opened);
    const seeding = performance.now();
    const conversationId = await seedConversation(opened, {
      exchanges: Math.ceil(target / EVENTS_PER_EXCHANGE),
    });
    const stored = Number(
      (
        await opened.db
          .selectFrom('conversations')
          .select('last_seq')
          .where('id', '=', conversationId)
          .executeTakeFirstOrThrow()
      ).last_seq,
    );
    // A database that has been in use has statistics (autovacuum); a freshly seeded one needs them now.
    await sql`analyze`.execute(opened.db);
    await opened.close();
    process.stderr.write(
      `${database}: seeded ${format(stored)} events in ${format(performance.now() - seeding)} ms\n`,
    );
    const server = await startServerChild({
      entry: [BUNDLE_FILE],
      dataDirectory,
      home: join(folder.path, 'home'),
      ...(database === 'postgres' ? { databaseUrl: postgres?.url as string } : {}),
    });
    try {
      const tail = await clientOf(server).getEventLog(conversationId, { after: stored - 20 });
      const lastSeq = tail.events.at(-1)?.seq ?? stored;
      const row: Row = {
        database,
        stored,
        firstEvent: [],
        catchUp1k: [],
        catchUp50k: [],
        replay: [],
        streamed: 0,
      };
      await resume(server, conversationId, lastSeq - 50, lastSeq); // warm-up
      for (let index = 0; index < 20; index++) {
        const result = await resume(server, conversationId, lastSeq - 50, lastSeq);
        row.firstEvent.push(result.first);
      }
      for (let index = 0; index < 5; index++)
        row.catchUp1k.push((await resume(server, conversationId, lastSeq - 1_000, lastSeq)).total);
      for (let index = 0; index < 3; index++)
        row.catchUp50k.push((await resume(server, conversationId, lastSeq - 50_000, lastSeq)).total);
      for (let index = 0; index < 3; index++) {
        const result = await resume(server, conversationId, 0, lastSeq);
        row.replay.push(result.total);
        row.streamed = result.count;
      }
      rows.push(row);
    } finally {
      await server.stop();
    }
  }
  const lines = [
    `One conversation with ${format(rows[0]?.stored ?? target)} stored events (${format(Math.ceil(target / EVENTS_PER_EXCHANGE))} exchanges; its session records are stored but never streamed), served by the bundle in its own process. The client reconnects with Last-Event-ID and reads until the last event.`,
    '',
    '| database | first event after a resume (median / p95) | catch up 1,000 events | catch up 50,000 events | replay all from 0 | events streamed in a replay | replay rate |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (row) =>
        `| ${row.database === 'sqlite' ? 'SQLite' : 'PostgreSQL'} | ${format(median(row.firstEvent), 1)} / ${format(percentile(row.firstEvent, 0.95), 1)} ms | ${format(median(row.catchUp1k))} ms | ${format(median(row.catchUp50k))} ms | ${format(median(row.replay))} ms | ${format(row.streamed)} | ${format(row.streamed / (median(row.replay) / 1000))} events/s |`,
    ),
  ];
  if (postgres === undefined) lines.push('', 'PostgreSQL: skipped (not reachable).');
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await postgres?.drop();
  await folder.remove();
}
