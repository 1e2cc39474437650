import { z } from 'zod';

const TextPart = z.looseObject({ type: z.literal('text'), text: z.string() });
const OtherPart = z.looseObject({ type: z.string() });

/** A chat message as OpenAI's chat completions API takes it; only what a transcript needs is checked. */
const ChatMessage = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
  content: z.union([z.string(), z.array(z.union([TextPart, OtherPart])), z.null()]).optional(),
});

/**
 * The request body of `POST /v1/chat/completions`. Sampling settings (temperature, max_tokens…)
 * and client-side `tools` are accepted and left to the agent's profile: the agent runs its own
 * tools on the server. `metadata.conversation_id` continues a workbench conversation.
 *
 * @example
 * ChatCompletionRequestSchema.parse({ model: 'youyou', messages: [{ role: 'user', content: 'Hi' }] });
 */
export const ChatCompletionRequestSchema = z.looseObject({
  model: z.string().min(1).max(256),
  messages: z.array(ChatMessage).min(1).max(10_000),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
});
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequestSchema>;

/** The text of a message's content (text parts joined; other parts are not for a transcript). */
export function textOfContent(content: ChatCompletionRequest['messages'][number]['content']): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  return content
    .map((part) => (part.type === 'text' && typeof part['text'] === 'string' ? part['text'] : ''))
    .filter((text) => text !== '')
    .join('\n');
}
