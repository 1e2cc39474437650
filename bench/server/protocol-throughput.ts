/**
 * Text deltas per second from a fake model to a client through the workbench server's three ways
 * of streaming a turn: the native SSE event stream, the AG-UI endpoint and the OpenAI-compatible
 * chat completions endpoint (issue 16). Same server (the bundle, SQLite), same model stream; the
 * native stream is the baseline.
 *   node bench/server/protocol-throughput.ts [--deltas 100000] [--repetitions 5]
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BUNDLE_FILE, buildServerBundle } from '@youyou/server';
import {
  callServer,
  format,
  median,
  startFakeModel,
  startServerChild,
  streamEvents,
  temporaryFolder,
  type ServerChild,
} from './support.ts';

const { values } = parseArgs({
  options: { deltas: { type: 'string', default: '100000' }, repetitions: { type: 'string', default: '5' } },
});
const deltas = Number(values.deltas);
const repetitions = Number(values.repetitions);
const PIECE = 'abcd';

const expected = deltas * PIECE.length;

/** Reads `data:` lines of an SSE response, handing each to `onData` until it returns true. */
async function readData(response: Response, onData: (data: string) => boolean): Promise<void> {
  if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body as ReadableStream<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let boundary = buffer.indexOf('\n\n');
    while (boundary >= 0) {
      const frame = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      const start = frame.indexOf('data: ');
      if (start >= 0 && onData(frame.slice(start + 6))) return;
      boundary = buffer.indexOf('\n\n');
    }
  }
}

function check(characters: number, label: string): void {
  if (characters !== expected)
    throw new Error(`${label}: received ${characters} characters, expected ${expected}`);
}

async function native(server: ServerChild): Promise<number> {
  const conversation = await callServer<{ id: string }>(server, 'POST', '/api/conversations', {});
  let characters = 0;
  const reading = streamEvents(
    `${server.url}/api/conversations/${conversation.id}/events`,
    server.token,
    0,
    (event) => {
      if (event.type === 'message.delta') characters += event.payload.text?.length ?? 0;
      return event.type === 'run.completed' || event.type === 'run.failed';
    },
  );
  await new Promise((resolve) => setTimeout(resolve, 50));
  const started = performance.now();
  await callServer(server, 'POST', `/api/conversations/${conversation.id}/messages`, {
    text: 'Stream, please',
  });
  const { endedAt } = await reading;
  check(characters, 'native');
  return deltas / ((endedAt - started) / 1000);
}

async function agUi(server: ServerChild): Promise<number> {
  let characters = 0;
  const started = performance.now();
  const response = await fetch(`${server.url}/api/ag-ui`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${server.token}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: JSON.stringify({
      threadId: randomUUID(),
      runId: randomUUID(),
      messages: [{ id: randomUUID(), role: 'user', content: 'Stream, please' }],
      tools: [],
      context: [],
    }),
  });
  await readData(response, (data) => {
    const event = JSON.parse(data) as { type: string; delta?: string };
    if (event.type === 'TEXT_MESSAGE_CONTENT') characters += event.delta?.length ?? 0;
    return event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR';
  });
  const endedAt = performance.now();
  check(characters, 'AG-UI');
  return deltas / ((endedAt - started) / 1000);
}

async function openAi(server: ServerChild): Promise<number> {
  let characters = 0;
  const started = performance.now();
  const response = await fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'youyou',
      stream: true,
      messages: [{ role: 'user', content: 'Stream, please' }],
    }),
  });
  await readData(response, (data) => {
    if (data === '[DONE]') return true;
    const chunk = JSON.parse(data) as { choices?: { delta?: { content?: string } }[] };
    characters += chunk.choices?.[0]?.delta?.content?.length ?? 0;
    return false;
  });
  const endedAt = performance.now();
  check(characters, 'OpenAI');
  return deltas / ((endedAt - started) / 1000);
}

const folder = await temporaryFolder('protocols');
await buildServerBundle();
const fake = await startFakeModel(
  { type: 'stream', steps: Array.from({ length: deltas }, () => ({ type: 'text', text: PIECE })) },
  folder.path,
);
const server = await startServerChild({
  entry: [BUNDLE_FILE],
  dataDirectory: join(folder.path, 'data'),
  home: join(folder.path, 'home'),
});
try {
  await callServer(server, 'POST', '/api/providers', {
    name: 'fake',
    kind: 'openai-compatible',
    base_url: fake.url,
    models: [{ id: 'fake-model' }],
  });
  const variants = [
    {
      label: 'Native SSE (`GET /api/conversations/:id/events`)',
      once: () => native(server),
      runs: [] as number[],
    },
    { label: 'AG-UI (`POST /api/ag-ui`)', once: () => agUi(server), runs: [] as number[] },
    {
      label: 'OpenAI-compatible (`POST /v1/chat/completions`, stream)',
      once: () => openAi(server),
      runs: [] as number[],
    },
  ];
  for (const variant of variants) await variant.once();
  for (let round = 0; round < repetitions; round++) {
    for (const variant of variants) variant.runs.push(await variant.once());
  }
  const baseline = median(variants[0]?.runs ?? []);
  const lines = [
    `${format(deltas)} text deltas of ${PIECE.length} characters from a fake OpenAI-compatible server (its own process) through the workbench (the bundle, SQLite) to a client, per protocol; median of ${repetitions} turns each after a warm-up, taking turns round by round. Deltas/s over the whole turn, request to last event.`,
    '',
    '| stream | deltas/s | ÷ native SSE |',
    '| --- | ---: | ---: |',
    ...variants.map((variant) => {
      const rate = median(variant.runs);
      return `| ${variant.label} | ${format(rate)} | ${(rate / baseline).toFixed(2)} |`;
    }),
    '',
    'Each protocol endpoint follows the same committed events the native stream sends (a run is persisted before anything is pushed) and re-encodes them, so the ratio is what the translation costs.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await server.stop();
  await fake.stop();
  await folder.remove();
}
