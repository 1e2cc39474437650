/**
 * An MCP tool call through YouYou against the official SDK client calling the same server
 * directly: the reference "everything" server over stdio, its `echo` tool, calls one after another.
 * Rows: the SDK client alone (the raw baseline); YouYou's tool handler (what the agent's dispatcher
 * calls: connection, result mapping); a whole agent turn per tool step (argument validation,
 * hooks, the loop, a scripted model). Target (issue 16): the handler within 1.2× + 1 ms of direct.
 *   node bench/server/mcp-tool-call.ts [--calls 2000] [--repetitions 5]
 */
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { AgentBuilder, type ChatEvent, type ModelProvider, type ToolHandler } from '@youyou/agent';
import { ListedMcpServers, McpManager } from '@youyou/server';
import { format, median, temporaryFolder } from './support.ts';

const { values } = parseArgs({
  options: { calls: { type: 'string', default: '2000' }, repetitions: { type: 'string', default: '5' } },
});
const calls = Number(values.calls);
const repetitions = Number(values.repetitions);
const require = createRequire(import.meta.url);
const EVERYTHING = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);
const server = { command: process.execPath, args: [EVERYTHING, 'stdio'] };

/** Microseconds per call over `calls` sequential calls. */
async function timed(call: (index: number) => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < calls; index++) await call(index);
  return ((performance.now() - started) * 1000) / calls;
}

async function direct(): Promise<{ once: () => Promise<number>; close: () => Promise<void> }> {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ ...server, stderr: 'ignore' }));
  return {
    once: () => timed((index) => client.callTool({ name: 'echo', arguments: { message: `m${index}` } })),
    close: () => client.close(),
  };
}

async function throughHandler(cwd: string) {
  const mcp = new McpManager({
    repository: new ListedMcpServers([{ name: 'everything', transport: { type: 'stdio', ...server } }]),
    clientVersion: 'bench',
    defaultCwd: cwd,
  });
  const loaded = await mcp.componentSource(null).load({ cwd, home: cwd });
  const echo = loaded.global.tools.find(({ tool }) => tool.name === 'everything__echo')?.tool as ToolHandler;
  const context = {
    signal: new AbortController().signal,
    cancelSignal: new AbortController().signal,
    sessionId: 's',
    turnId: 't',
    cwd,
    home: cwd,
  };
  return {
    once: () =>
      timed(async (index) => {
        const output = await echo.execute(
          { callId: `c${index}`, toolName: echo.name, arguments: { message: `m${index}` } },
          context,
        );
        if (output.isError === true) throw new Error(output.content);
      }),
    close: () => mcp.shutdown(),
  };
}

/** A model that calls the tool `calls` times, one call per step, then answers. */
function scriptedModel(): ModelProvider {
  let step = 0;
  return {
    id: 'bench',
    listModels: () => [
      {
        id: 'bench-model',
        displayName: 'Bench model',
        contextWindow: 1_000_000_000,
        capabilities: { toolUse: true, vision: false, streaming: true },
      },
    ],
    async *chat(): AsyncIterable<ChatEvent> {
      if (step < calls) {
        step++;
        yield {
          type: 'tool_call',
          callId: `call-${step}`,
          toolName: 'everything__echo',
          arguments: JSON.stringify({ message: `m${step}` }),
        };
        yield { type: 'done', finishReason: 'tool_calls' };
        return;
      }
      step = 0;
      yield { type: 'text_delta', text: 'done' };
      yield { type: 'done', finishReason: 'stop' };
    },
  };
}

async function throughAgent(cwd: string, home: string) {
  const mcp = new McpManager({
    repository: new ListedMcpServers([{ name: 'everything', transport: { type: 'stdio', ...server } }]),
    clientVersion: 'bench',
    defaultCwd: cwd,
  });
  const agent = await new AgentBuilder({ cwd, home })
    .addProvider(scriptedModel())
    .addComponentSource(mcp.componentSource(null))
    .setConfig({ maxToolCallsPerTurn: 1_000_000, toolTimeoutMs: 60_000 })
    .build();
  return {
    once: async () => {
      const session = await agent.newSession({ modelId: 'bench-model' });
      let toolCalls = 0;
      const started = performance.now();
      for await (const event of session.send('go')) {
        if (event.type === 'ToolCallEnd') {
          if (!event.success) throw new Error(event.output);
          toolCalls++;
        }
      }
      const perCall = ((performance.now() - started) * 1000) / calls;
      await session.close();
      if (toolCalls !== calls) throw new Error(`${toolCalls} tool calls, expected ${calls}`);
      return perCall;
    },
    close: async () => {
      await agent.shutdown();
      await mcp.shutdown();
    },
  };
}

const folder = await temporaryFolder('mcp');
const cwd = join(folder.path, 'work');
const home = join(folder.path, 'home');
await Promise.all([mkdir(cwd), mkdir(home)]);
const variants = [
  { label: 'Official SDK client, direct (baseline)', open: () => direct(), runs: [] as number[] },
  {
    label: 'YouYou MCP tool handler (what the dispatcher calls)',
    open: () => throughHandler(cwd),
    runs: [] as number[],
  },
  {
    label: 'YouYou agent turn, per tool step (validation, hooks, loop)',
    open: () => throughAgent(cwd, home),
    runs: [] as number[],
  },
];
try {
  const opened = [];
  for (const variant of variants) opened.push({ variant, path: await variant.open() });
  // A warm-up each, then round by round so drift on the machine hits every path alike.
  for (const { path } of opened) await path.once();
  for (let round = 0; round < repetitions; round++) {
    for (const { variant, path } of opened) variant.runs.push(await path.once());
  }
  for (const { path } of opened) await path.close();
  const baseline = median(variants[0]?.runs ?? []);
  const lines = [
    `${format(calls)} sequential calls of the everything server's \`echo\` tool over stdio (its own process), median of ${repetitions} rounds after a warm-up.`,
    '',
    '| path | µs per call | ÷ direct | over direct (µs) | target ≤ 1.2× + 1 ms |',
    '| --- | ---: | ---: | ---: | --- |',
    ...variants.map((variant, index) => {
      const perCall = median(variant.runs);
      const target = index === 0 ? '' : perCall <= baseline * 1.2 + 1000 ? 'met' : 'missed';
      return `| ${variant.label} | ${format(perCall, 1)} | ${(perCall / baseline).toFixed(2)} | ${format(perCall - baseline, 1)} | ${target} |`;
    }),
    '',
    'The agent row includes a model step per call (a scripted provider in process), so it shows the whole cost of a tool step in a turn, not only the MCP call.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await folder.remove();
}
