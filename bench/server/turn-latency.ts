/**
 * Per-turn latency through the workbench against the direct call, in one run (issue 28):
 * - the official `openai` client streaming a short answer from the workbench's OpenAI-compatible
 *   route against the same client on the fake model server itself: time to the first content
 *   delta and to the end of the stream;
 * - AG-UI's `HttpAgent` (@ag-ui/client) against the workbench: time to the first
 *   TEXT_MESSAGE_CONTENT, beside the same direct model call;
 * - the everything MCP server's `echo` over stdio: the SDK `Client` direct against a workbench
 *   tool step (an AG-UI turn that calls `everything__echo`, less the same turn without the call and
 *   less the second model call's direct cost).
 * The fake model runs in this process (so both sides pay the same loopback and event loop); the
 * workbench is the server bundle in its own process on SQLite.
 *   node --conditions=@youyou/source --import tsx bench/server/turn-latency.ts [--turns 40] [--cpu-prof-dir <dir>] [--sources]
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { HttpAgent } from '@ag-ui/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import OpenAI from 'openai';
import { BUNDLE_FILE, buildServerBundle } from '@youyou/server';
import { startFakeOpenAI, type RecordedRequest } from '@youyou/testing';
import { format, median, startServerChild, temporaryFolder, type ServerChild } from './support.ts';

const { values } = parseArgs({
  options: {
    turns: { type: 'string', default: '40' },
    'cpu-prof-dir': { type: 'string' },
    sources: { type: 'boolean', default: false },
  },
});
const turns = Number(values.turns);
// `--cpu-prof-dir <dir>` runs the workbench child under `node --cpu-prof` (written when it stops);
// `--sources` runs it from the TypeScript sources instead of the bundle (readable profile frames).
const profile =
  values['cpu-prof-dir'] === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof-dir']];
const require = createRequire(import.meta.url);
const EVERYTHING = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);
const ANSWER = ['Hello', ' there', ', all', ' good.'];
const ECHO_PROMPT = 'Call echo, please';

/** The model's reply: an echo tool call when asked for one (and no tool result yet), else a short answer. */
function reply(request: RecordedRequest) {
  const messages = (request.body as { messages?: { role: string; content?: unknown }[] }).messages ?? [];
  const last = messages.at(-1);
  const wantsEcho = last?.role === 'user' && JSON.stringify(last.content).includes(ECHO_PROMPT);
  if (wantsEcho)
    return {
      type: 'stream' as const,
      steps: [{ type: 'tool_call' as const, name: 'everything__echo', arguments: { message: 'hi' } }],
    };
  return { type: 'stream' as const, steps: ANSWER.map((text) => ({ type: 'text' as const, text })) };
}

/** A process's CPU time so far (user + system), ms, from Linux /proc: load on the machine does not inflate it. */
async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? [];
  // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

interface Timing {
  firstMs: number;
  totalMs: number;
}

async function openAiTurn(client: OpenAI, model: string): Promise<Timing> {
  const started = performance.now();
  let firstMs = Number.NaN;
  let text = '';
  const stream = await client.chat.completions.create({
    model,
    stream: true,
    messages: [{ role: 'user', content: 'Say hello' }],
  });
  for await (const chunk of stream) {
    const content = chunk.choices[0]?.delta?.content;
    if (content !== undefined && content !== null && content !== '') {
      if (Number.isNaN(firstMs)) firstMs = performance.now() - started;
      text += content;
    }
  }
  const totalMs = performance.now() - started;
  if (text !== ANSWER.join('')) throw new Error(`OpenAI client got ${JSON.stringify(text)}`);
  return { firstMs, totalMs };
}

async function agUiTurn(server: ServerChild, prompt: string): Promise<Timing & { toolResults: number }> {
  const agent = new HttpAgent({
    url: `${server.url}/api/ag-ui`,
    headers: { authorization: `Bearer ${server.token}` },
    threadId: randomUUID(),
  });
  agent.messages = [{ id: randomUUID(), role: 'user', content: prompt }];
  let firstMs = Number.NaN;
  let toolResults = 0;
  let text = '';
  const started = performance.now();
  await agent.runAgent(
    { runId: randomUUID() },
    {
      onTextMessageContentEvent: ({ event }) => {
        if (Number.isNaN(firstMs)) firstMs = performance.now() - started;
        text += event.delta;
      },
      onToolCallResultEvent: () => void toolResults++,
    },
  );
  const totalMs = performance.now() - started;
  if (!text.endsWith(ANSWER.join(''))) throw new Error(`HttpAgent got ${JSON.stringify(text)}`);
  return { firstMs, totalMs, toolResults };
}

async function mcpDirect(client: Client): Promise<number> {
  const started = performance.now();
  const result = await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
  const elapsed = performance.now() - started;
  if (result.isError === true) throw new Error('echo failed');
  return elapsed;
}

const folder = await temporaryFolder('turn-latency');
await buildServerBundle();
const fake = await startFakeOpenAI({ fallback: reply });
const server = await startServerChild({
  entry: [...profile, values.sources ? 'apps/server/src/main.ts' : BUNDLE_FILE],
  dataDirectory: join(folder.path, 'data'),
  home: join(folder.path, 'home'),
});
const mcp = new Client({ name: 'bench', version: '1' });
try {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  };
  await post('/api/providers', {
    name: 'fake',
    kind: 'openai-compatible',
    base_url: fake.url,
    models: [{ id: 'fake-model' }],
  });
  await post('/api/mcp/servers', {
    name: 'everything',
    transport: { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] },
  });
  await mcp.connect(
    new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' }),
  );
  const direct = new OpenAI({ baseURL: fake.url, apiKey: 'fake', maxRetries: 0 });
  const through = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: server.token, maxRetries: 0 });

  const samples = {
    directOpenAi: [] as Timing[],
    throughOpenAi: [] as Timing[],
    agUi: [] as Timing[],
    agUiTool: [] as Timing[],
    mcpDirect: [] as number[],
  };
  // Warm-up rounds (JIT, the MCP server's start in the workbench, SQLite's caches), then measured
  // rounds, each path once per round so drift on the machine hits all alike.
  const round = async (keep: boolean) => {
    const directTiming = await openAiTurn(direct, 'fake-model');
    const throughTiming = await openAiTurn(through, 'youyou');
    const agUi = await agUiTurn(server, 'Say hello');
    const agUiTool = await agUiTurn(server, ECHO_PROMPT);
    if (agUiTool.toolResults !== 1) throw new Error(`${agUiTool.toolResults} tool results, expected 1`);
    const echo = await mcpDirect(mcp);
    if (!keep) return;
    samples.directOpenAi.push(directTiming);
    samples.throughOpenAi.push(throughTiming);
    samples.agUi.push(agUi);
    samples.agUiTool.push(agUiTool);
    samples.mcpDirect.push(echo);
  };
  for (let index = 0; index < 5; index++) await round(false);
  const cpuBefore = await cpuMs(server.pid);
  for (let index = 0; index < turns; index++) await round(true);
  const cpuPerRound = ((await cpuMs(server.pid)) - cpuBefore) / turns;

  const first = (timings: Timing[]) => median(timings.map((timing) => timing.firstMs));
  const total = (timings: Timing[]) => median(timings.map((timing) => timing.totalMs));
  const modelFirst = first(samples.directOpenAi);
  const modelTotal = total(samples.directOpenAi);
  const echoDirect = median(samples.mcpDirect);
  const toolStep = total(samples.agUiTool) - total(samples.agUi) - modelTotal;
  const row = (
    label: string,
    directMs: number,
    throughMs: number,
    allowed: (d: number) => number,
    target: string,
  ) => {
    const verdict = throughMs <= allowed(directMs) ? 'met' : 'missed';
    return `| ${label} | ${format(directMs, 2)} | ${format(throughMs, 2)} | ${(throughMs / directMs).toFixed(1)}× | +${format(throughMs - directMs, 2)} | ${target} | ${verdict} |`;
  };
  const lines = [
    `Medians of ${turns} rounds after 5 warm-ups, each path once per round; the fake OpenAI-compatible model in the bench process, the workbench (the bundle, SQLite) in its own process, the everything MCP server over stdio. A short answer is ${ANSWER.length} deltas.`,
    '',
    '| path | model or peer direct (ms) | through YouYou (ms) | ratio | delta (ms) | target | |',
    '| --- | ---: | ---: | ---: | ---: | --- | --- |',
    row(
      'OpenAI client, time to first token (streamed)',
      modelFirst,
      first(samples.throughOpenAi),
      (d) => d + 5,
      '≤ model + 5 ms',
    ),
    row(
      'OpenAI client, total for a short answer',
      modelTotal,
      total(samples.throughOpenAi),
      (d) => d + 8,
      '≤ model + 8 ms',
    ),
    row(
      'AG-UI `HttpAgent`, time to first token',
      modelFirst,
      first(samples.agUi),
      (d) => d + 8,
      '≤ model + 8 ms',
    ),
    row(
      'AG-UI `HttpAgent`, total for a short answer',
      modelTotal,
      total(samples.agUi),
      (d) => d + 8,
      '(none)',
    ),
    row(
      'MCP `echo` over stdio: SDK `Client` vs a workbench tool step',
      echoDirect,
      toolStep,
      (d) => d * 1.5 + 1,
      '≤ 1.5× + 1 ms',
    ),
    '',
    `The workbench process spent ${format(cpuPerRound, 1)} ms of CPU per round (three runs: the OpenAI client's and two AG-UI turns, one of them with the tool step; from /proc, which load on the machine does not inflate: ${format(cpuPerRound / 3, 1)} ms a run).`,
    '',
    `The tool step is an AG-UI turn that calls \`everything__echo\` (${format(total(samples.agUiTool), 2)} ms) less the same turn without it (${format(total(samples.agUi), 2)} ms) less one direct model call (${format(modelTotal, 2)} ms): the call itself plus its events, database writes and the second model request's overhead.`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await mcp.close();
  await server.stop();
  await fake.close();
  await folder.remove();
}
