/**
 * A multi-turn conversation with a tool, against the ScriptedProvider (no API key, no network).
 * Run: npm start
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AgentBuilder, InMemorySessionStorage, type AgentEvent, type ToolHandler } from '@youyou/agent';
import { ScriptedProvider, textReply, toolCallReply } from '@youyou/testing';

const weather: ToolHandler = {
  name: 'get_weather',
  description: 'Returns the current weather for a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string', description: 'City name' } },
    required: ['city'],
    additionalProperties: false,
  },
  mutating: false,
  execute: ({ arguments: { city } }) => ({ content: `${String(city)}: 21 °C, light rain` }),
};

const provider = new ScriptedProvider().enqueue(
  toolCallReply([{ toolName: 'get_weather', arguments: { city: 'Hangzhou' } }]),
  textReply('It is 21 °C with light rain in Hangzhou. Take an umbrella.', { chunkSize: 8 }),
  textReply('You are welcome!', { chunkSize: 4 }),
);

const root = await mkdtemp(path.join(os.tmpdir(), 'youyou-example-'));
try {
  const agent = await new AgentBuilder({ cwd: root, home: path.join(root, 'home') })
    .addProvider(provider)
    .addTool(weather)
    .setSessionStorage(new InMemorySessionStorage())
    .setConfig({ baseInstructions: 'You are a helpful assistant.' })
    .build();

  const session = await agent.newSession();
  for (const input of ['What is the weather in Hangzhou?', 'Thanks!']) {
    console.log(`\nuser> ${input}`);
    for await (const event of session.send(input)) console.log(describe(event));
  }
  await session.close();
  await agent.shutdown();
} finally {
  await rm(root, { recursive: true, force: true });
}

function describe(event: AgentEvent): string {
  const prefix = `#${String(event.sequence).padStart(2, '0')} ${event.type}`;
  switch (event.type) {
    case 'TextDelta':
    case 'ReasoningDelta':
      return `${prefix} ${JSON.stringify(event.text)}`;
    case 'ToolCallStart':
      return `${prefix} ${event.toolName}(${event.arguments})`;
    case 'ToolCallEnd':
      return `${prefix} ${event.toolName} → ${JSON.stringify(event.output)} (${event.durationMs} ms, ${event.success ? 'ok' : 'error'})`;
    case 'ContextCompacted':
      return `${prefix} ${event.strategy}: ${event.tokensBefore} → ${event.tokensAfter} tokens`;
    case 'TurnComplete':
      return `${prefix} ${event.status}: ${event.modelCalls} model call(s), ${event.toolCalls} tool call(s), ${event.usage.inputTokens}+${event.usage.outputTokens} tokens`;
    case 'TurnCancelled':
      return `${prefix} after ${event.toolCalls} tool call(s)`;
    case 'Error':
      return `${prefix} ${event.error.code}: ${event.error.message}`;
  }
}
