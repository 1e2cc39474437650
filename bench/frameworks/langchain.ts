/**
 * LangChain: `createAgent` (the LangGraph ReAct agent) over a minimal `BaseChatModel` subclass.
 * The library's own fakes do not fit: `FakeStreamingChatModel` sleeps 50 ms per chunk and
 * `FakeToolCallingModel` joins the whole history into every reply, which would charge LangChain for
 * the fake's work. W1 streams with `streamMode: 'messages'` (token streaming); W2 uses
 * `streamMode: 'updates'` (one event per graph step) with `recursionLimit` above the step count.
 */
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { BaseMessage } from '@langchain/core/messages';
import { AIMessage, AIMessageChunk } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { ChatGenerationChunk } from '@langchain/core/outputs';
import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import { createAgent, tool } from 'langchain';
import { z } from 'zod';
import {
  DELTA_TEXT,
  FINAL_ANSWER,
  TOOL_DESCRIPTION,
  TOOL_NAME,
  pong,
  toolCallId,
  type FrameworkAdapter,
  type PreparedRun,
  type TextStreamResult,
  type ToolLoopResult,
} from '../workload.ts';

/** The model's next reply: `deltaCount` text chunks, or one call of the tool. */
type Reply = { kind: 'text'; text: string; deltaCount: number } | { kind: 'tool'; step: number };

function messageOf(reply: Reply): AIMessage {
  if (reply.kind === 'text') return new AIMessage({ content: reply.text.repeat(reply.deltaCount) });
  return new AIMessage({
    content: '',
    tool_calls: [
      { id: toolCallId(reply.step), name: TOOL_NAME, args: { step: reply.step }, type: 'tool_call' },
    ],
  });
}

/** A chat model that plays `nextReply()` for each call; it streams text one chunk per delta. */
class BenchChatModel extends BaseChatModel {
  readonly #nextReply: () => Reply;

  constructor(nextReply: () => Reply) {
    super({});
    this.#nextReply = nextReply;
  }

  override _llmType(): string {
    return 'bench';
  }

  /** The script ignores tool definitions, so binding them changes nothing. */
  override bindTools(): this {
    return this;
  }

  override async _generate(): Promise<ChatResult> {
    const message = messageOf(this.#nextReply());
    return { generations: [{ text: message.text, message }] };
  }

  override async *_streamResponseChunks(
    _messages: BaseMessage[],
    _options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const reply = this.#nextReply();
    if (reply.kind === 'tool') {
      const message = messageOf(reply);
      yield new ChatGenerationChunk({
        text: '',
        message: new AIMessageChunk({ content: '', tool_calls: message.tool_calls ?? [] }),
      });
      return;
    }
    for (let index = 0; index < reply.deltaCount; index++) {
      const chunk = new ChatGenerationChunk({
        text: reply.text,
        message: new AIMessageChunk({ content: reply.text }),
      });
      yield chunk;
      await runManager?.handleLLMNewToken(reply.text, undefined, undefined, undefined, undefined, { chunk });
    }
  }
}

const noClose = async (): Promise<void> => {};

export const adapter: FrameworkAdapter = {
  async prepareTextStream(deltaCount): Promise<PreparedRun<TextStreamResult>> {
    const model = new BenchChatModel(() => ({ kind: 'text', text: DELTA_TEXT, deltaCount }));
    const agent = createAgent({ model, tools: [] });
    return {
      async run() {
        const stream = await agent.stream(
          { messages: [{ role: 'user', content: 'go' }] },
          { streamMode: 'messages' },
        );
        let deltas = 0;
        let characters = 0;
        for await (const [message] of stream) {
          if (AIMessageChunk.isInstance(message) && message.text.length > 0) {
            deltas++;
            characters += message.text.length;
          }
        }
        return { deltas, characters };
      },
      close: noClose,
    };
  },

  async prepareToolLoop(stepCount, onToolCall): Promise<PreparedRun<ToolLoopResult>> {
    let calls = 0;
    const model = new BenchChatModel(() => {
      calls++;
      return calls <= stepCount
        ? { kind: 'tool', step: calls }
        : { kind: 'text', text: FINAL_ANSWER, deltaCount: 1 };
    });
    const ping = tool(
      ({ step }: { step: number }) => {
        onToolCall(step);
        return pong(step);
      },
      { name: TOOL_NAME, description: TOOL_DESCRIPTION, schema: z.object({ step: z.number() }) },
    );
    const agent = createAgent({ model, tools: [ping] });
    return {
      async run() {
        const stream = await agent.stream(
          { messages: [{ role: 'user', content: 'go' }] },
          { streamMode: 'updates', recursionLimit: stepCount * 2 + 10 },
        );
        let toolCalls = 0;
        let finalText = '';
        for await (const update of stream) {
          for (const [node, value] of Object.entries(update)) {
            const messages = (value as { messages?: BaseMessage[] } | undefined)?.messages ?? [];
            if (node === 'tools') toolCalls += messages.length;
            else {
              for (const message of messages) {
                if (AIMessage.isInstance(message) && (message.tool_calls ?? []).length === 0) {
                  finalText += message.text;
                }
              }
            }
          }
        }
        return { toolCalls, finalText };
      },
      close: noClose,
    };
  },
};
