// A terminal chat on @youyou/agent with a real model provider, chosen by the environment:
//
//   OPENAI_BASE_URL=http://127.0.0.1:8000/v1 [OPENAI_API_KEY=…]   any OpenAI-compatible server
//   ANTHROPIC_API_KEY=sk-ant-…                                     Anthropic
//   OPENAI_API_KEY=sk-…                                            OpenAI
//   (none of these)                                                a local Ollama on 127.0.0.1:11434
//
//   YOUYOU_MODEL=<model id>   the model to talk to (default: the provider's first model)
//
//   npx tsx examples/chat.ts
//
// Replies stream as they are written, reasoning in grey; tool calls show with their results.
// Ctrl-C cancels the running turn and the chat goes on; Ctrl-C twice when idle, or Ctrl-D, quits.
import { readdir } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { createInterface } from 'node:readline';
import { AgentBuilder } from '@youyou/agent';
import type { AgentEvent, ModelProvider, ToolHandler, Turn } from '@youyou/agent';
import { anthropic, ollama, openai, openaiCompatible } from '@youyou/providers';

const colour = process.stdout.isTTY === true;
const grey = (text: string): string => (colour ? `\x1b[90m${text}\x1b[0m` : text);
const write = (text: string): void => {
  process.stdout.write(text);
};

/** The provider the environment asks for. */
function chooseProvider(): { provider: ModelProvider; description: string } {
  const baseURL = process.env['OPENAI_BASE_URL'];
  if (baseURL !== undefined && baseURL.length > 0) {
    const provider = openaiCompatible({
      id: 'openai-compatible',
      baseURL,
      apiKey: process.env['OPENAI_API_KEY'] ?? '',
      apiKeyHint: '(set OPENAI_API_KEY)',
    });
    return { provider, description: `the OpenAI-compatible server at ${baseURL}` };
  }
  if ((process.env['ANTHROPIC_API_KEY'] ?? '').length > 0)
    return { provider: anthropic(), description: 'Anthropic' };
  if ((process.env['OPENAI_API_KEY'] ?? '').length > 0) return { provider: openai(), description: 'OpenAI' };
  return { provider: ollama(), description: 'Ollama at http://127.0.0.1:11434' };
}

const tools: ToolHandler[] = [
  {
    name: 'current_time',
    description: 'Returns the current date and time as an ISO 8601 string.',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    mutating: false,
    execute: () => ({ content: new Date().toISOString() }),
  },
  {
    name: 'list_directory',
    description:
      'Lists the entries of a directory under the working directory (default: the working directory).',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string', description: 'A path relative to the working directory.' } },
      additionalProperties: false,
    },
    mutating: false,
    async execute(input, context) {
      const relative = typeof input.arguments['path'] === 'string' ? input.arguments['path'] : '.';
      const target = resolve(context.cwd, relative);
      if (target !== context.cwd && !target.startsWith(context.cwd + sep)) {
        return { content: `${relative} is outside the working directory.`, isError: true };
      }
      const entries = await readdir(target, { withFileTypes: true });
      return {
        content: entries.map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name)).join('\n'),
      };
    },
  },
];

function show(event: AgentEvent): void {
  switch (event.type) {
    case 'TextDelta':
      write(event.text);
      break;
    case 'ReasoningDelta':
      write(grey(event.text));
      break;
    case 'ToolCallStart':
      write(`\n→ ${event.toolName}(${event.arguments})\n`);
      break;
    case 'ToolCallEnd': {
      const output = event.output.length > 200 ? `${event.output.slice(0, 200)}…` : event.output;
      write(`${event.success ? '←' : '✗'} ${event.toolName}: ${output.replaceAll('\n', ' ')}\n`);
      break;
    }
    case 'ContextCompacted':
      write(grey(`\n[context compacted: ${event.tokensBefore} → ${event.tokensAfter} tokens]\n`));
      break;
    case 'Error':
      write(`\n[error] ${event.error.message}\n`);
      break;
    case 'TurnComplete':
      write(grey(`\n[${event.usage.inputTokens} in, ${event.usage.outputTokens} out]\n`));
      break;
    case 'TurnCancelled':
      write('\n[cancelled]\n');
      break;
  }
}

async function main(): Promise<void> {
  const { provider, description } = chooseProvider();
  const agent = await new AgentBuilder({ cwd: process.cwd() })
    .addProvider(provider)
    .addTool(tools[0]!)
    .addTool(tools[1]!)
    .setConfig({ baseInstructions: 'You are a helpful assistant in a terminal. Be brief.' })
    .build();
  const modelId = process.env['YOUYOU_MODEL'];
  const session = await agent.newSession(modelId === undefined || modelId.length === 0 ? {} : { modelId });
  write(grey(`Chatting with ${modelId ?? agent.models[0]?.id ?? 'the default model'} on ${description}.\n`));
  write(grey('Ctrl-C cancels a reply; Ctrl-C twice or Ctrl-D quits.\n'));

  let running: Turn | undefined;
  let lastIdleInterrupt = 0;
  let inputClosed = false;
  const input = createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: process.stdin.isTTY === true,
  });
  input.once('close', () => {
    inputClosed = true;
  });
  const prompt = (): void => {
    if (!inputClosed) input.prompt();
  };
  const interrupt = (): void => {
    if (running !== undefined) {
      running.cancel();
      return;
    }
    if (Date.now() - lastIdleInterrupt < 2_000) {
      input.close();
      return;
    }
    lastIdleInterrupt = Date.now();
    write(grey('\n(Ctrl-C again or Ctrl-D to quit)\n'));
    prompt();
  };
  // A terminal's Ctrl-C reaches readline; a signal from elsewhere (or with piped input) reaches the process.
  input.on('SIGINT', interrupt);
  process.on('SIGINT', interrupt);

  input.setPrompt('you> ');
  prompt();
  for await (const line of input) {
    const text = line.trim();
    if (text.length > 0) {
      if (process.stdin.isTTY !== true) write(`${text}\n`);
      running = session.send(text);
      try {
        for await (const event of running) show(event);
      } finally {
        running = undefined;
      }
    }
    prompt();
  }

  process.off('SIGINT', interrupt);
  write('\n');
  await session.close();
  await agent.shutdown();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
