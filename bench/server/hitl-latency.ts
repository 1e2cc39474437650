/**
 * A HITL card answered → the model's next request (issue 10, target p95 < 20 ms), on SQLite and
 * PostgreSQL, the server and the fake OpenAI-compatible model in this process on loopback: the
 * model calls ask_user, the card waits, `POST …/cards/:id/answer` is sent, and the clock stops when
 * the fake model receives the request that carries the answer as the tool result (the card row and
 * `hitl.resolved` committed, the tool call woken, the result recorded, the next model request
 * built and sent). Side by side, the raw baseline of the same server: `POST …/messages` → that
 * turn's first model request (what starting any turn costs), and the answer's own HTTP round trip.
 *   node --conditions=@youyou/source --import tsx bench/server/hitl-latency.ts [--rounds 100] [--sqlite-only]
 */
import { parseArgs } from 'node:util';
import { startServer, type RunningServer } from '@youyou/server';
import { fakeAskUserReply, fakeTextReply, startFakeOpenAI, type FakeServer } from '@youyou/testing';
import { callServer, format, percentile, postgresSchema, temporaryFolder } from './support.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '100' },
    'sqlite-only': { type: 'boolean', default: false },
  },
});
const ROUNDS = Number(values.rounds);

const CARD = {
  question: 'Which output format?',
  kind: 'choice',
  choices: [
    { id: 'md', label: 'Markdown', impact: 'Written to the artifacts', recommended: true },
    { id: 'docx', label: 'Word', impact: 'A .docx file' },
  ],
  allowFreeInput: true,
} as const;

interface Samples {
  /** Answer sent → the model's next request arrived. */
  answerToRequest: number[];
  /** The answer's HTTP response. */
  answerResponse: number[];
  /** Message sent → the turn's first model request arrived (the baseline). */
  messageToRequest: number[];
}

async function until<T>(check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

async function round(server: RunningServer, fake: FakeServer, samples: Samples | undefined): Promise<void> {
  let askedAt = 0;
  let answeredRequestAt = 0;
  fake.push(
    {
      type: 'respond',
      respond: () => {
        askedAt = performance.now();
        return fakeAskUserReply({ ...CARD });
      },
    },
    {
      type: 'respond',
      respond: () => {
        answeredRequestAt = performance.now();
        return fakeTextReply('ok');
      },
    },
  );
  const conversation = await callServer<{ id: string }>(server, 'POST', '/api/conversations', {
    title: 'bench',
  });
  const sentAt = performance.now();
  const sent = await callServer<{ run: { id: string } }>(
    server,
    'POST',
    `/api/conversations/${conversation.id}/messages`,
    { text: 'Write the report' },
  );
  const card = await until(async () => {
    const { cards } = await callServer<{ cards: { card: { id: string } }[] }>(
      server,
      'GET',
      `/api/conversations/${conversation.id}/cards?status=pending`,
    );
    return cards[0];
  });
  const answerAt = performance.now();
  await callServer(server, 'POST', `/api/conversations/${conversation.id}/cards/${card.card.id}/answer`, {
    answer: { type: 'choice', choice_id: 'docx' },
  });
  const answeredAt = performance.now();
  await until(async () => {
    const run = await callServer<{ status: string }>(server, 'GET', `/api/runs/${sent.run.id}`);
    return run.status === 'completed' ? run : undefined;
  });
  if (answeredRequestAt === 0) throw new Error('the model was not asked again');
  samples?.answerToRequest.push(answeredRequestAt - answerAt);
  samples?.answerResponse.push(answeredAt - answerAt);
  samples?.messageToRequest.push(askedAt - sentAt);
}

async function measure(label: string, databaseUrl: string | undefined): Promise<string[]> {
  const folder = await temporaryFolder('hitl');
  const fake = await startFakeOpenAI({});
  const server = await startServer({
    port: 0,
    home: folder.path,
    dataDirectory: `${folder.path}/data`,
    workspaceRoots: [folder.path],
    logLevel: 'silent',
    ...(databaseUrl === undefined ? {} : { databaseUrl }),
  });
  try {
    await callServer(server, 'POST', '/api/providers', {
      name: 'fake',
      kind: 'openai-compatible',
      base_url: fake.url,
      api_key: 'bench',
      models: [{ id: 'fake-model' }],
    });
    for (let warm = 0; warm < 5; warm++) await round(server, fake, undefined);
    const samples: Samples = { answerToRequest: [], answerResponse: [], messageToRequest: [] };
    for (let index = 0; index < ROUNDS; index++) await round(server, fake, samples);
    const row = (name: string, values: number[], baseline?: number[]) => {
      const ratio =
        baseline === undefined ? '' : `${format(percentile(values, 0.5) / percentile(baseline, 0.5), 2)}×`;
      return `| ${label} | ${name} | ${format(percentile(values, 0.5), 2)} | ${format(percentile(values, 0.95), 2)} | ${ratio} |`;
    };
    const p95 = percentile(samples.answerToRequest, 0.95);
    return [
      row('card answered → next model request', samples.answerToRequest, samples.messageToRequest),
      row('the answer’s HTTP response', samples.answerResponse),
      row('baseline: message sent → first model request', samples.messageToRequest),
      `| ${label} | target: p95 < 20 ms | | ${format(p95, 2)} | ${p95 < 20 ? 'met' : '**missed**'} |`,
    ];
  } finally {
    await server.close();
    await fake.close();
    await folder.remove();
  }
}

const rows = await measure('SQLite', undefined);
if (values['sqlite-only'] !== true) {
  const schema = await postgresSchema();
  if (schema === undefined) rows.push('| PostgreSQL | skipped: no database reachable | | | |');
  else {
    try {
      rows.push(...(await measure('PostgreSQL', schema.url)));
    } finally {
      await schema.drop();
    }
  }
}
console.log(`A HITL card answered → the model's next request, ${String(ROUNDS)} rounds, ms:\n`);
console.log('| Database | Interval | p50 | p95 | ÷ baseline (p50) |');
console.log('| --- | --- | ---: | ---: | ---: |');
for (const row of rows) console.log(row);
