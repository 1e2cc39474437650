/**
 * Opening a conversation of 10,000 messages (the conversation Query), paging through all of it,
 * and one more turn in it (the agent loads its branch: 10,000 records), on SQLite and PostgreSQL.
 *   node --import tsx bench/server/large-conversation.ts [--messages 10000]
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
  startFakeModel,
  startServerChild,
  temporaryFolder,
} from './support.ts';

const { values } = parseArgs({ options: { messages: { type: 'string', default: '10000' } } });
const messages = Number(values.messages);

const folder = await temporaryFolder('large');
await buildServerBundle();
const fake = await startFakeModel(
  { type: 'stream', steps: [{ type: 'text', text: 'Still here.' }] },
  folder.path,
);
const postgres = await postgresSchema();
const lines = [
  `One conversation of ${format(messages)} messages (${format(messages / 2)} exchanges), served by the bundle in its own process. "Open" is GET /api/conversations/:id (its newest 100 messages with their alternatives), median and p95 of 20; "all" pages back 1,000 messages at a time to the first; "one more turn" is from POST …/messages to the run's end (the agent loads all ${format(messages)} messages and sends them to a fake model).`,
  '',
  '| database | open (median / p95) | all messages, 1,000 a page | one more turn |',
  '| --- | ---: | ---: | ---: |',
];
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
    const conversationId = await seedConversation(opened, { exchanges: messages / 2 });
    await sql`analyze`.execute(opened.db);
    await opened.close();
    const server = await startServerChild({
      entry: [BUNDLE_FILE],
      dataDirectory,
      home: join(folder.path, 'home'),
      ...(database === 'postgres' ? { databaseUrl: postgres?.url as string } : {}),
    });
    try {
      const client = clientOf(server);
      await client.createProvider({
        name: 'fake',
        kind: 'openai-compatible',
        base_url: fake.url,
        models: [{ id: 'fake-model', context_window: 1_000_000 }],
      });
      await client.getConversation(conversationId);
      const opens: number[] = [];
      for (let index = 0; index < 20; index++) {
        const started = performance.now();
        await client.getConversation(conversationId);
        opens.push(performance.now() - started);
      }
      const allStarted = performance.now();
      let before: string | undefined;
      let seen = 0;
      do {
        const view = await client.getConversation(conversationId, {
          limit: 1000,
          ...(before === undefined ? {} : { before }),
        });
        seen += view.messages.length;
        before = view.earlier_cursor;
      } while (before !== undefined);
      const all = performance.now() - allStarted;
      if (seen !== messages) throw new Error(`paged through ${seen} messages`);
      const turnStarted = performance.now();
      const sent = await client.sendMessage(conversationId, { text: 'Still there?' });
      let status = '';
      while (status !== 'completed' && status !== 'failed') {
        status = (await client.getRun(sent.run.id)).status;
        if (status !== 'completed') await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const turn = performance.now() - turnStarted;
      lines.push(
        `| ${database === 'sqlite' ? 'SQLite' : 'PostgreSQL'} | ${format(median(opens), 1)} / ${format(percentile(opens, 0.95), 1)} ms | ${format(all)} ms | ${format(turn)} ms (${status}) |`,
      );
    } finally {
      await server.stop();
    }
  }
  if (postgres === undefined) lines.push('', 'PostgreSQL: skipped (not reachable).');
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await postgres?.drop();
  await fake.stop();
  await folder.remove();
}
