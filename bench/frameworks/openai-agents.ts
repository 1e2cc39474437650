/**
 * OpenAI Agents JS: `run(agent, 'go', { stream: true })` over a custom `Model` whose
 * `getStreamedResponse` is an async generator of the SDK's normalized stream events. Tracing is
 * switched off, as no other framework here traces. W2 registers a `tool()` with a zod schema and
 * lets the runner loop with `maxTurns` above the step count.
 */
import { Agent, Usage, run, setTracingDisabled, tool } from '@openai/agents';
import type { Model, ModelRequest, ModelResponse, protocol } from '@openai/agents';
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

setTracingDisabled(true);

const usage = { requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 };

/** The model's next reply: `deltaCount` text deltas, or one call of the tool. */
type Reply = { kind: 'text'; text: string; deltaCount: number } | { kind: 'tool'; step: number };

function outputOf(reply: Reply): protocol.OutputModelItem[] {
  if (reply.kind === 'tool') {
    const callId = toolCallId(reply.step);
    return [
      {
        type: 'function_call',
        id: callId,
        callId,
        name: TOOL_NAME,
        arguments: toolArguments(reply.step),
        status: 'completed',
      },
    ];
  }
  return [
    {
      type: 'message',
      id: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: reply.text.repeat(reply.deltaCount) }],
    },
  ];
}

/** A `Model` that plays `nextReply()` for each call, streamed one event at a time. */
class BenchModel implements Model {
  readonly #nextReply: () => Reply;
  #responses = 0;

  constructor(nextReply: () => Reply) {
    this.#nextReply = nextReply;
  }

  async getResponse(_request: ModelRequest): Promise<ModelResponse> {
    return { usage: new Usage(usage), output: outputOf(this.#nextReply()), responseId: this.#responseId() };
  }

  async *getStreamedResponse(_request: ModelRequest): AsyncIterable<protocol.StreamEvent> {
    const reply = this.#nextReply();
    yield { type: 'response_started' };
    if (reply.kind === 'text') {
      for (let index = 0; index < reply.deltaCount; index++) {
        yield { type: 'output_text_delta', delta: reply.text };
      }
    }
    yield { type: 'response_done', response: { id: this.#responseId(), usage, output: outputOf(reply) } };
  }

  #responseId(): string {
    this.#responses++;
    return `response_${this.#responses}`;
  }
}

const noClose = async (): Promise<void> => {};

export const adapter: FrameworkAdapter = {
  async prepareTextStream(deltaCount): Promise<PreparedRun<TextStreamResult>> {
    const model = new BenchModel(() => ({ kind: 'text', text: DELTA_TEXT, deltaCount }));
    const agent = new Agent({ name: 'bench', instructions: '', model });
    return {
      async run() {
        const result = await run(agent, 'go', { stream: true });
        let deltas = 0;
        let characters = 0;
        for await (const event of result) {
          if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') {
            deltas++;
            characters += event.data.delta.length;
          }
        }
        await result.completed;
        if (result.error !== null && result.error !== undefined) throw result.error;
        return { deltas, characters };
      },
      close: noClose,
    };
  },

  async prepareToolLoop(stepCount, onToolCall): Promise<PreparedRun<ToolLoopResult>> {
    let calls = 0;
    const model = new BenchModel(() => {
      calls++;
      return calls <= stepCount
        ? { kind: 'tool', step: calls }
        : { kind: 'text', text: FINAL_ANSWER, deltaCount: 1 };
    });
    const ping = tool({
      name: TOOL_NAME,
      description: TOOL_DESCRIPTION,
      parameters: z.object({ step: z.number() }),
      execute: ({ step }) => {
        onToolCall(step);
        return pong(step);
      },
    });
    const agent = new Agent({ name: 'bench', instructions: '', model, tools: [ping] });
    return {
      async run() {
        const result = await run(agent, 'go', { stream: true, maxTurns: stepCount + 2 });
        let toolCalls = 0;
        let finalText = '';
        for await (const event of result) {
          if (event.type === 'run_item_stream_event' && event.name === 'tool_output') toolCalls++;
          else if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') {
            finalText += event.data.delta;
          }
        }
        await result.completed;
        if (result.error !== null && result.error !== undefined) throw result.error;
        return { toolCalls, finalText };
      },
      close: noClose,
    };
  },
};
