/**
 * YouYou: `AgentBuilder` with a minimal bench provider (not the test fake) and, for W2, one
 * non-mutating tool; the consumer iterates every event of `session.send('go')`. The agent's `cwd`
 * and `home` are a fresh temporary folder, never the real `~/.youyou`.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentBuilder } from '@youyou/agent';
import type { ChatEvent, ModelProvider, ToolHandler } from '@youyou/agent';
import {
  DELTA_TEXT,
  FINAL_ANSWER,
  TOOL_DESCRIPTION,
  TOOL_NAME,
  pong,
  toolArguments,
  toolCallId,
  type FrameworkAdapter,
  type PreparedRun,
  type TextStreamResult,
  type ToolLoopResult,
} from '../workload.ts';

const MODEL_ID = 'bench-model';

/** The model's next reply: `deltaCount` text deltas, or one call of the tool. */
type Reply = { kind: 'text'; text: string; deltaCount: number } | { kind: 'tool'; step: number };

/** A provider that plays `nextReply()` for each chat call, one event at a time. */
function benchProvider(nextReply: () => Reply): ModelProvider {
  return {
    id: 'bench',
    listModels: () => [
      {
        id: MODEL_ID,
        displayName: 'Bench model',
        // Large enough that 1,000 tool round trips never trigger compaction.
        contextWindow: 1_000_000_000,
        capabilities: { toolUse: true, vision: false, streaming: true },
      },
    ],
    async *chat(): AsyncIterable<ChatEvent> {
      const reply = nextReply();
      if (reply.kind === 'tool') {
        yield {
          type: 'tool_call',
          callId: toolCallId(reply.step),
          toolName: TOOL_NAME,
          arguments: toolArguments(reply.step),
        };
        yield { type: 'done', finishReason: 'tool_calls' };
        return;
      }
      for (let index = 0; index < reply.deltaCount; index++) yield { type: 'text_delta', text: reply.text };
      yield { type: 'done', finishReason: 'stop' };
    },
  };
}

interface TurnOutcome {
  deltas: number;
  characters: number;
  toolCalls: number;
  text: string;
}

async function prepareTurn(
  provider: ModelProvider,
  tools: readonly ToolHandler[],
  keepText: boolean,
): Promise<PreparedRun<TurnOutcome>> {
  const folder = await mkdtemp(join(tmpdir(), 'youyou-bench-'));
  const cwd = join(folder, 'work');
  const home = join(folder, 'home');
  await Promise.all([mkdir(cwd), mkdir(home)]);
  let builder = new AgentBuilder({ cwd, home }).addProvider(provider);
  for (const tool of tools) builder = builder.addTool(tool);
  const agent = await builder.setConfig({ maxToolCallsPerTurn: 100_000 }).build();
  const session = await agent.newSession({ modelId: MODEL_ID });
  return {
    async run() {
      const outcome: TurnOutcome = { deltas: 0, characters: 0, toolCalls: 0, text: '' };
      for await (const event of session.send('go')) {
        if (event.type === 'TextDelta') {
          outcome.deltas++;
          outcome.characters += event.text.length;
          if (keepText) outcome.text += event.text;
        } else if (event.type === 'ToolCallEnd') outcome.toolCalls++;
        else if (event.type === 'Error' && event.fatal)
          throw new Error(`${event.error.code}: ${event.error.message}`);
        else if (event.type === 'TurnComplete' && event.status === 'failed') {
          throw new Error(`turn failed: ${JSON.stringify(event.error)}`);
        }
      }
      return outcome;
    },
    async close() {
      await session.close();
      await agent.shutdown();
      await rm(folder, { recursive: true, force: true });
    },
  };
}

export const adapter: FrameworkAdapter = {
  async prepareTextStream(deltaCount): Promise<PreparedRun<TextStreamResult>> {
    const provider = benchProvider(() => ({ kind: 'text', text: DELTA_TEXT, deltaCount }));
    const prepared = await prepareTurn(provider, [], false);
    return {
      async run() {
        const outcome = await prepared.run();
        return { deltas: outcome.deltas, characters: outcome.characters };
      },
      close: () => prepared.close(),
    };
  },

  async prepareToolLoop(stepCount, onToolCall): Promise<PreparedRun<ToolLoopResult>> {
    let calls = 0;
    const provider = benchProvider(() => {
      calls++;
      return calls <= stepCount
        ? { kind: 'tool', step: calls }
        : { kind: 'text', text: FINAL_ANSWER, deltaCount: 1 };
    });
    const ping: ToolHandler = {
      name: TOOL_NAME,
      description: TOOL_DESCRIPTION,
      parameters: {
        type: 'object',
        properties: { step: { type: 'number' } },
        required: ['step'],
        additionalProperties: false,
      },
      mutating: false,
      execute: (input) => {
        const step = input.arguments['step'] as number;
        onToolCall(step);
        return { content: pong(step) };
      },
    };
    const prepared = await prepareTurn(provider, [ping], true);
    return {
      async run() {
        const outcome = await prepared.run();
        return { toolCalls: outcome.toolCalls, finalText: outcome.text };
      },
      close: () => prepared.close(),
    };
  },
};
