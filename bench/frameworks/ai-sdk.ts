/**
 * The Vercel AI SDK: `streamText` over the SDK's own `MockLanguageModelV4` (from `ai/test`), whose
 * `doStream` returns a ReadableStream fed one part at a time by an async generator. W2 registers a
 * `tool()` with a zod schema and lets `streamText` loop with `stopWhen: stepCountIs(...)`.
 */
import { stepCountIs, streamText, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
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

type StreamResult = Awaited<ReturnType<MockLanguageModelV4['doStream']>>;
type StreamPart = StreamResult['stream'] extends ReadableStream<infer Part> ? Part : never;

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

async function* textParts(deltaCount: number, text = DELTA_TEXT): AsyncGenerator<StreamPart> {
  yield { type: 'stream-start', warnings: [] };
  yield { type: 'text-start', id: 'text' };
  for (let index = 0; index < deltaCount; index++) yield { type: 'text-delta', id: 'text', delta: text };
  yield { type: 'text-end', id: 'text' };
  yield { type: 'finish', usage, finishReason: { unified: 'stop', raw: 'stop' } };
}

async function* toolCallParts(step: number): AsyncGenerator<StreamPart> {
  yield { type: 'stream-start', warnings: [] };
  yield { type: 'tool-call', toolCallId: toolCallId(step), toolName: TOOL_NAME, input: toolArguments(step) };
  yield { type: 'finish', usage, finishReason: { unified: 'tool-calls', raw: 'tool_calls' } };
}

const noClose = async (): Promise<void> => {};

export const adapter: FrameworkAdapter = {
  async prepareTextStream(deltaCount): Promise<PreparedRun<TextStreamResult>> {
    const model = new MockLanguageModelV4({
      doStream: async () => ({ stream: ReadableStream.from(textParts(deltaCount)) }),
    });
    return {
      async run() {
        const result = streamText({ model, prompt: 'go' });
        let deltas = 0;
        let characters = 0;
        for await (const part of result.fullStream) {
          if (part.type === 'text-delta') {
            deltas++;
            characters += part.text.length;
          } else if (part.type === 'error') throw part.error;
        }
        return { deltas, characters };
      },
      close: noClose,
    };
  },

  async prepareToolLoop(stepCount, onToolCall): Promise<PreparedRun<ToolLoopResult>> {
    let calls = 0;
    const model = new MockLanguageModelV4({
      doStream: async () => {
        calls++;
        const parts = calls <= stepCount ? toolCallParts(calls) : textParts(1, FINAL_ANSWER);
        return { stream: ReadableStream.from(parts) };
      },
    });
    const ping = tool({
      description: TOOL_DESCRIPTION,
      inputSchema: z.object({ step: z.number() }),
      execute: ({ step }) => {
        onToolCall(step);
        return pong(step);
      },
    });
    return {
      async run() {
        const result = streamText({
          model,
          prompt: 'go',
          tools: { [TOOL_NAME]: ping },
          stopWhen: stepCountIs(stepCount + 2),
        });
        let toolCalls = 0;
        let finalText = '';
        for await (const part of result.fullStream) {
          if (part.type === 'tool-result') toolCalls++;
          else if (part.type === 'text-delta') finalText += part.text;
          else if (part.type === 'error' || part.type === 'tool-error') throw part.error;
        }
        return { toolCalls, finalText };
      },
      close: noClose,
    };
  },
};
