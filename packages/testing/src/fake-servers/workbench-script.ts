import type { FakeReply, FakeStreamReply, RecordedRequest } from './fake-script.ts';

/**
 * Replies that drive the YouYou Workbench's built-in tools through the real agent loop: the model
 * asks the user on a card, publishes a plan or todos, calls a tool that waits for confirmation —
 * and the next reply is written from the tool result the workbench sends back.
 */

/** The result of the newest tool call in a chat request (OpenAI `role: tool`, Anthropic `tool_result`). */
export function lastToolResult(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const messages = (body as { messages?: unknown }).messages;
  if (!Array.isArray(messages)) return undefined;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index] as { role?: unknown; content?: unknown } | null;
    if (message?.role === 'tool') {
      if (typeof message.content === 'string') return message.content;
      if (Array.isArray(message.content)) {
        return (message.content as { text?: unknown }[])
          .map((part) => (typeof part.text === 'string' ? part.text : ''))
          .join('');
      }
    }
    if (message?.role === 'user' && Array.isArray(message.content)) {
      const result = (message.content as { type?: unknown; content?: unknown }[]).findLast(
        (part) => part.type === 'tool_result',
      );
      // Chat Completions: a step's tool images follow its tool messages in a user message.
      if (result === undefined && (messages[index - 1] as { role?: unknown } | null)?.role === 'tool')
        continue;
      if (result !== undefined) {
        if (typeof result.content === 'string') return result.content;
        if (Array.isArray(result.content)) {
          return (result.content as { text?: unknown }[])
            .map((part) => (typeof part.text === 'string' ? part.text : ''))
            .join('');
        }
        return '';
      }
      return undefined;
    }
  }
  return undefined;
}

function toolCall(
  name: string,
  toolArguments: Readonly<Record<string, unknown>>,
  id?: string,
): FakeStreamReply {
  return {
    type: 'stream',
    steps: [{ type: 'tool_call', name, arguments: toolArguments, ...(id === undefined ? {} : { id }) }],
  };
}

/**
 * The model calls `ask_user` with this card (§4.5: question, kind, choices with impact…).
 *
 * @example
 * fake.push(fakeAskUserReply({ question: 'Format?', kind: 'choice', choices: [...] }), fakeReplyAfterToolResult((r) => fakeTextReply(r)));
 */
export function fakeAskUserReply(card: Readonly<Record<string, unknown>>, callId?: string): FakeStreamReply {
  return toolCall('ask_user', card, callId);
}

/** The model publishes a plan with `update_plan`. */
export function fakeUpdatePlanReply(
  steps: readonly { id?: string; title: string; status: 'pending' | 'in_progress' | 'done' | 'skipped' }[],
  explanation?: string,
): FakeStreamReply {
  return toolCall('update_plan', { steps, ...(explanation === undefined ? {} : { explanation }) });
}

/** The model sets the todos with `update_todos`. */
export function fakeUpdateTodosReply(
  todos: readonly { id?: string; text: string; done?: boolean }[],
): FakeStreamReply {
  return toolCall('update_todos', { todos });
}

/**
 * A reply written when its request arrives, from the tool result in it: continue the loop from
 * what the user answered, confirmed or denied.
 *
 * @example
 * fakeReplyAfterToolResult((result) => fakeTextReply(`You said: ${result}`));
 */
export function fakeReplyAfterToolResult(
  write: (result: string, request: RecordedRequest) => FakeReply,
): FakeReply {
  return { type: 'respond', respond: (request) => write(lastToolResult(request.body) ?? '', request) };
}
