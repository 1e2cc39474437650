/**
 * The raw baseline: no framework. W1 is one async generator yielding the deltas to the consumer;
 * W2 is a loop that asks an async-generator "model" for its next event, parses the call's JSON
 * arguments, calls a trivial function and appends call and result to a history array. This is the
 * least work any agent loop has to do for the same script.
 */
import {
  DELTA_TEXT,
  FINAL_ANSWER,
  pong,
  toolArguments,
  toolCallId,
  type FrameworkAdapter,
  type PreparedRun,
  type TextStreamResult,
  type ToolLoopResult,
} from '../workload.ts';

type BaselineEvent =
  | { type: 'text_delta'; text: string }
  | { type: 'tool_call'; callId: string; arguments: string }
  | { type: 'done' };

async function* streamDeltas(deltaCount: number): AsyncGenerator<BaselineEvent> {
  for (let index = 0; index < deltaCount; index++) yield { type: 'text_delta', text: DELTA_TEXT };
  yield { type: 'done' };
}

async function* modelStep(step: number, stepCount: number): AsyncGenerator<BaselineEvent> {
  if (step <= stepCount)
    yield { type: 'tool_call', callId: toolCallId(step), arguments: toolArguments(step) };
  else yield { type: 'text_delta', text: FINAL_ANSWER };
  yield { type: 'done' };
}

const noClose = async (): Promise<void> => {};

export const adapter: FrameworkAdapter = {
  async prepareTextStream(deltaCount): Promise<PreparedRun<TextStreamResult>> {
    return {
      async run() {
        let deltas = 0;
        let characters = 0;
        for await (const event of streamDeltas(deltaCount)) {
          if (event.type === 'text_delta') {
            deltas++;
            characters += event.text.length;
          }
        }
        return { deltas, characters };
      },
      close: noClose,
    };
  },

  async prepareToolLoop(stepCount, onToolCall): Promise<PreparedRun<ToolLoopResult>> {
    const ping = (step: number): string => {
      onToolCall(step);
      return pong(step);
    };
    return {
      async run() {
        const history: { callId: string; output: string }[] = [];
        let finalText = '';
        for (let step = 1; ; step++) {
          let calledTool = false;
          for await (const event of modelStep(step, stepCount)) {
            if (event.type === 'tool_call') {
              const parsed = JSON.parse(event.arguments) as { step: number };
              history.push({ callId: event.callId, output: ping(parsed.step) });
              calledTool = true;
            } else if (event.type === 'text_delta') finalText += event.text;
          }
          if (!calledTool) break;
        }
        return { toolCalls: history.length, finalText };
      },
      close: noClose,
    };
  },
};
