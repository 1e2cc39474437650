/**
 * Cold start to the first 200 (`GET /api/health`, from spawning the process) and idle memory (RSS)
 * of `youyou serve`: the bundle `npm start` runs, and the TypeScript sources run by Node's type
 * stripping. Targets (issue 5): cold start under 1 s; idle RSS under 120 MB.
 *   node --import tsx bench/server/startup.ts [--starts 5]
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BUNDLE_FILE, buildServerBundle } from '@youyou/server';
import {
  clientOf,
  format,
  median,
  residentMegabytes,
  startFakeModel,
  startServerChild,
  temporaryFolder,
  type ServerChild,
} from './support.ts';

const { values } = parseArgs({ options: { starts: { type: 'string', default: '5' } } });
const starts = Number(values.starts);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const ENTRIES = [
  { label: 'bundle (npm start)', entry: [BUNDLE_FILE] },
  { label: 'sources (node src/main.ts)', entry: ['apps/server/src/main.ts'] },
];

async function coldStart(
  entry: string[],
  dataDirectory: string,
  home: string,
): Promise<{ ms: number; server: ServerChild }> {
  const started = performance.now();
  const server = await startServerChild({ entry, dataDirectory, home });
  const response = await fetch(`${server.url}/api/health`, {
    headers: { authorization: `Bearer ${server.token}` },
  });
  if (response.status !== 200) throw new Error(`health answered ${response.status}`);
  await response.arrayBuffer();
  return { ms: performance.now() - started, server };
}

const folder = await temporaryFolder('startup');
await buildServerBundle();
const fake = await startFakeModel(
  { type: 'stream', steps: [{ type: 'text', text: 'Hello from the fake model.' }] },
  folder.path,
);
const lines = [
  `Each start is a new process: from spawn to the first 200 of GET /api/health. "Fresh" creates the data directory and applies the migrations; "existing" reopens it. Median and worst of ${starts}. RSS is read from /proc after 3 s idle: right after start, and after one conversation turn against a fake model.`,
  '',
  '| how it runs | cold start, fresh | cold start, existing | worst | target < 1 s | idle RSS | idle RSS after a turn | target < 120 MB |',
  '| --- | ---: | ---: | ---: | --- | ---: | ---: | --- |',
];
try {
  for (const { label, entry } of ENTRIES) {
    const fresh: number[] = [];
    const existing: number[] = [];
    let idle = Number.NaN;
    let afterTurn = Number.NaN;
    for (let index = 0; index < starts; index++) {
      const dataDirectory = join(folder.path, `${label.split(' ')[0] ?? 'x'}-${index}`);
      const home = join(folder.path, 'home');
      const first = await coldStart(entry, dataDirectory, home);
      fresh.push(first.ms);
      await first.server.stop();
      const again = await coldStart(entry, dataDirectory, home);
      existing.push(again.ms);
      if (index === starts - 1) {
        await sleep(3_000);
        idle = await residentMegabytes(again.server.pid);
        const client = clientOf(again.server);
        await client.createProvider({
          name: 'fake',
          kind: 'openai-compatible',
          base_url: fake.url,
          models: [{ id: 'fake-model' }],
        });
        const conversation = await client.createConversation();
        const sent = await client.sendMessage(conversation.id, { text: 'Hello' });
        for (let attempt = 0; attempt < 200; attempt++) {
          const run = await client.getRun(sent.run.id);
          if (run.status === 'completed') break;
          await sleep(20);
        }
        await client.getConversation(conversation.id);
        await sleep(3_000);
        afterTurn = await residentMegabytes(again.server.pid);
      }
      await again.server.stop();
    }
    const worst = Math.max(...fresh, ...existing);
    const rss = Math.max(idle, afterTurn);
    lines.push(
      `| ${label} | ${format(median(fresh))} ms | ${format(median(existing))} ms | ${format(worst)} ms | ${worst < 1000 ? 'met' : 'missed'} | ${format(idle)} MB | ${format(afterTurn)} MB | ${rss < 120 ? 'met' : 'missed'} |`,
    );
    process.stderr.write(
      `${label}: fresh ${fresh.map((ms) => format(ms)).join(', ')} ms; existing ${existing.map((ms) => format(ms)).join(', ')} ms\n`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await fake.stop();
  await folder.remove();
}
