/**
 * Sub-agents and artifacts (issue 11), on SQLite and PostgreSQL, with the fake OpenAI-compatible
 * model on loopback:
 * - 8 concurrent sub-agents of one turn: spawn (the parent's spawn_agent call) → the child's first
 *   event and → its first text, p50/p95; events/s into the tracker (the conversation's SSE
 *   stream); parent overhead per child against the raw baseline (8 @youyou/agent sessions at
 *   once on the same fake model, no workbench).
 * - a 1 MB artifact: one exact edit as a new version plus the diff of the two, p50/p95, against
 *   the raw baseline (the same edit and jsdiff on strings, no database).
 *   node --conditions=@youyou/source --import tsx bench/server/subagents.ts [--rounds 5] [--sqlite-only]
 */
import { parseArgs } from 'node:util';
import { AgentBuilder } from '@youyou/agent';
import { openaiCompatible } from '@youyou/providers';
import { startServer, type RunningServer } from '@youyou/server';
import {
  sessionScripts,
  startFakeOpenAI,
  type FakeReply,
  type FakeServer,
  type RecordedRequest,
} from '@youyou/testing';
import { structuredPatch } from 'diff';
import { format, percentile, postgresSchema, streamEvents, temporaryFolder } from './support.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    children: { type: 'string', default: '8' },
    deltas: { type: 'string', default: '200' },
    'sqlite-only': { type: 'boolean', default: false },
  },
});
const ROUNDS = Number(values.rounds);
const CHILDREN = Number(values.children);
const DELTAS = Number(values.deltas);

function childReply(): FakeReply {
  return {
    type: 'stream',
    steps: Array.from({ length: DELTAS }, (_unused, index) => ({ type: 'text', text: `t${String(index)} ` })),
  };
}

interface TreeRound {
  /** → its agent.spawn (the child's run exists, the tracker shows it). */
  spawnToVisible: number[];
  /** → its first run.phase (it has a slot and runs). */
  spawnToEvent: number[];
  spawnToText: number[];
  wallMs: number;
  events: number;
  eventsPerSecond: number;
}

async function treeRound(server: RunningServer, round: number): Promise<TreeRound> {
  const tag = `round-${String(round)}-${String(Date.now())}`;
  const tasks = Array.from({ length: CHILDREN }, (_unused, index) => `Child task ${tag} #${String(index)}`);
  const scripts = sessionScripts([
    {
      match: `Parent ${tag}`,
      replies: [
        {
          type: 'stream',
          steps: tasks.map((task) => ({
            type: 'tool_call' as const,
            name: 'spawn_agent',
            arguments: { task },
          })),
        },
        { type: 'stream', steps: [{ type: 'text', text: 'done' }] },
      ],
    },
    ...tasks.map((task) => ({ match: task, replies: [childReply()] })),
  ]);
  replies = scripts.reply;
  const headers = { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' };
  const conversation = (await (
    await fetch(`${server.url}/api/conversations`, { method: 'POST', headers, body: '{}' })
  ).json()) as { id: string };
  const spawnAt = new Map<string, number>();
  const childOfCall = new Map<string, string>();
  const visible = new Map<string, number>();
  const firstEvent = new Map<string, number>();
  const firstText = new Map<string, number>();
  let events = 0;
  let firstAt = 0;
  let parentRun = '';
  const streaming = streamEvents(
    `${server.url}/api/conversations/${conversation.id}/events`,
    server.token,
    0,
    (event) => {
      const now = performance.now();
      events++;
      if (firstAt === 0) firstAt = now;
      const payload = event.payload as { call_id?: string; tool_name?: string };
      if (
        event.type === 'tool.call' &&
        payload.tool_name === 'spawn_agent' &&
        payload.call_id !== undefined
      ) {
        spawnAt.set(payload.call_id, now);
      }
      if (event.type === 'agent.spawn' && payload.call_id !== undefined && event.run_id !== null) {
        childOfCall.set(event.run_id, payload.call_id);
        visible.set(event.run_id, now);
      }
      if (event.run_id !== null && childOfCall.has(event.run_id)) {
        if (event.type === 'run.phase' && !firstEvent.has(event.run_id)) firstEvent.set(event.run_id, now);
        if (event.type === 'message.delta' && !firstText.has(event.run_id)) firstText.set(event.run_id, now);
      }
      return event.run_id === parentRun && (event.type === 'run.completed' || event.type === 'run.failed');
    },
  );
  const started = performance.now();
  const sent = (await (
    await fetch(`${server.url}/api/conversations/${conversation.id}/messages`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ text: `Parent ${tag}` }),
    })
  ).json()) as { run: { id: string } };
  parentRun = sent.run.id;
  const { endedAt } = await streaming;
  const spawnToEvent: number[] = [];
  const spawnToVisible: number[] = [];
  const spawnToText: number[] = [];
  for (const [child, callId] of childOfCall) {
    const spawned = spawnAt.get(callId) ?? Number.NaN;
    spawnToVisible.push((visible.get(child) ?? Number.NaN) - spawned);
    spawnToEvent.push((firstEvent.get(child) ?? Number.NaN) - spawned);
    spawnToText.push((firstText.get(child) ?? Number.NaN) - spawned);
  }
  return {
    spawnToVisible,
    spawnToEvent,
    spawnToText,
    wallMs: endedAt - started,
    events,
    eventsPerSecond: (events / (endedAt - firstAt)) * 1000,
  };
}

/** The fake server's fallback is fixed at start: it answers through this, which each round sets. */
let replies: (request: RecordedRequest) => FakeReply = () => ({
  type: 'stream',
  steps: [{ type: 'text', text: 'ok' }],
});

/** The raw baseline: `CHILDREN` @youyou/agent sessions at once, each its own Agent, same fake model. */
async function rawRound(
  fake: FakeServer,
  home: string,
  round: number,
): Promise<{ wallMs: number; toText: number[] }> {
  const tag = `raw-${String(round)}-${String(Date.now())}`;
  const tasks = Array.from({ length: CHILDREN }, (_unused, index) => `Raw task ${tag} #${String(index)}`);
  replies = sessionScripts(tasks.map((task) => ({ match: task, replies: [childReply()] }))).reply;
  const started = performance.now();
  const toText: number[] = [];
  await Promise.all(
    tasks.map(async (task) => {
      const began = performance.now();
      const agent = await new AgentBuilder({ cwd: home, home })
        .addProvider(
          openaiCompatible({ id: 'fake', baseURL: fake.url, apiKey: 'k', models: [{ id: 'fake-model' }] }),
        )
        .build();
      const session = await agent.newSession();
      let first = true;
      for await (const event of session.send(task)) {
        if (event.type === 'TextDelta' && first) {
          first = false;
          toText.push(performance.now() - began);
        }
      }
      await session.close();
      await agent.shutdown();
    }),
  );
  return { wallMs: performance.now() - started, toText };
}

/** A 1 MB markdown document of numbered sections. */
function megabyteDocument(): string {
  const lines: string[] = [];
  let size = 0;
  for (let index = 0; size < 1024 * 1024; index++) {
    const line =
      index % 20 === 0
        ? `## Section ${String(index / 20)}`
        : `Line ${String(index)}: the quick brown fox jumps over the lazy dog, again and again.`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

async function artifactRounds(
  server: RunningServer,
  rounds: number,
): Promise<{ service: number[]; raw: number[]; bytes: number }> {
  const artifacts = server.services.artifacts;
  const headers = { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' };
  const conversation = (await (
    await fetch(`${server.url}/api/conversations`, { method: 'POST', headers, body: '{}' })
  ).json()) as { id: string };
  // A run to write as: the first turn of the conversation.
  replies = () => ({ type: 'stream', steps: [{ type: 'text', text: 'ok' }] });
  const sent = (await (
    await fetch(`${server.url}/api/conversations/${conversation.id}/messages`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ text: 'hello' }),
    })
  ).json()) as { run: { id: string } };
  const scope = await artifacts.scopeOf(sent.run.id);
  let document = megabyteDocument();
  const created = await artifacts.create(scope, {
    title: `big-${String(Date.now())}.md`,
    kind: 'markdown',
    content: document,
  });
  const service: number[] = [];
  const raw: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const find = `Line ${String(1001 + round * 7)}: the quick`;
    const replace = `Line ${String(1001 + round * 7)}: THE QUICK`;
    let started = performance.now();
    const updated = await artifacts.update(scope, { reference: created.id, edits: [{ find, replace }] });
    await artifacts.diff(created.id, String(updated.version.version - 1), String(updated.version.version));
    service.push(performance.now() - started);
    // Raw: the same edit and diff on strings.
    started = performance.now();
    const at = document.indexOf(find);
    const next = document.slice(0, at) + replace + document.slice(at + find.length);
    structuredPatch('a', 'a', document, next, '', '', { context: 3 });
    raw.push(performance.now() - started);
    document = next;
  }
  return { service, raw, bytes: Buffer.byteLength(document) };
}

async function runOn(label: string, databaseUrl: string | undefined): Promise<string[]> {
  const folder = await temporaryFolder('subagents');
  const fake = await startFakeOpenAI({ fallback: (request) => replies(request) });
  const server = await startServer({
    port: 0,
    home: folder.path,
    dataDirectory: `${folder.path}/data`,
    workspaceRoots: [folder.path],
    logLevel: 'silent',
    subagents: { maxConcurrent: CHILDREN },
    ...(databaseUrl === undefined ? {} : { databaseUrl }),
  });
  try {
    await fetch(`${server.url}/api/providers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'fake',
        kind: 'openai-compatible',
        base_url: fake.url,
        api_key: 'k',
        models: [{ id: 'fake-model' }],
      }),
    });
    // One warm-up of each, not counted.
    await treeRound(server, -1);
    await rawRound(fake, folder.path, -1);
    const trees: TreeRound[] = [];
    const raws: { wallMs: number; toText: number[] }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      trees.push(await treeRound(server, round));
      raws.push(await rawRound(fake, folder.path, round));
    }
    const spawnToVisible = trees.flatMap((round) => round.spawnToVisible);
    const spawnToEvent = trees.flatMap((round) => round.spawnToEvent);
    const spawnToText = trees.flatMap((round) => round.spawnToText);
    const rawToText = raws.flatMap((round) => round.toText);
    const treeWall = trees.map((round) => round.wallMs);
    const rawWall = raws.map((round) => round.wallMs);
    const overhead = (percentile(treeWall, 0.5) - percentile(rawWall, 0.5)) / CHILDREN;
    const artifact = await artifactRounds(server, ROUNDS * 2);
    return [
      `| ${label} | spawn → the child's first event (agent.spawn: it exists, the tracker shows it) | p50 ${format(percentile(spawnToVisible, 0.5), 1)} ms · p95 ${format(percentile(spawnToVisible, 0.95), 1)} ms | target p95 < 30 ms |`,
      `| ${label} | spawn → the child running (its run.phase) | p50 ${format(percentile(spawnToEvent, 0.5), 1)} ms · p95 ${format(percentile(spawnToEvent, 0.95), 1)} ms | |`,
      `| ${label} | spawn → first child text (its own agent built, session opened, model streaming) | p50 ${format(percentile(spawnToText, 0.5), 1)} ms · p95 ${format(percentile(spawnToText, 0.95), 1)} ms | raw session start → first text p50 ${format(percentile(rawToText, 0.5), 1)} ms (ratio ${format(percentile(spawnToText, 0.5) / percentile(rawToText, 0.5), 2)}) |`,
      `| ${label} | ${String(CHILDREN)} sub-agents × ${String(DELTAS)} deltas, whole turn | p50 ${format(percentile(treeWall, 0.5))} ms | raw ${String(CHILDREN)} sessions p50 ${format(percentile(rawWall, 0.5))} ms (ratio ${format(percentile(treeWall, 0.5) / percentile(rawWall, 0.5), 2)}); parent overhead per child ${format(overhead, 1)} ms |`,
      `| ${label} | events/s into the tracker (SSE) | ${format(
        percentile(
          trees.map((round) => round.eventsPerSecond),
          0.5,
        ),
      )} /s (${format(
        percentile(
          trees.map((round) => round.events),
          0.5,
        ),
      )} events a turn) | |`,
      `| ${label} | ${format(artifact.bytes / 1024 / 1024, 2)} MB artifact: exact edit → new version + diff | p50 ${format(percentile(artifact.service, 0.5), 1)} ms · p95 ${format(percentile(artifact.service, 0.95), 1)} ms | raw edit + jsdiff p50 ${format(percentile(artifact.raw, 0.5), 1)} ms (ratio ${format(percentile(artifact.service, 0.5) / percentile(artifact.raw, 0.5), 2)}); target < 100 ms |`,
    ];
  } finally {
    await server.close();
    await fake.close();
    await folder.remove();
  }
}

const rows: string[] = [];
rows.push(...(await runOn('SQLite', undefined)));
if (!values['sqlite-only']) {
  const schema = await postgresSchema();
  if (schema === undefined) rows.push('| PostgreSQL | (not reachable: skipped) | | |');
  else {
    try {
      rows.push(...(await runOn('PostgreSQL', schema.url)));
    } finally {
      await schema.drop();
    }
  }
}
console.log(`\n| database | measure | result | against |\n|---|---|---|---|\n${rows.join('\n')}\n`);
