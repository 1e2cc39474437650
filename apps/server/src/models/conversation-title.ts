import { TITLE_LENGTH } from './auto-title.ts';
import type { SettingsContext } from '../settings/index.ts';
import type { ModelRouting } from './model-routing.ts';

/** What the lightweight model is asked (spec §4.7: titles are a lightweight task). */
export const TITLE_SYSTEM_PROMPT = [
  'You name conversations. Reply with a title for the conversation that starts with the message below:',
  'at most six words, in the same language as the message, no quotes, no full stop, nothing else.',
].join(' ');

/** The longest message text sent to be titled. */
const TITLE_INPUT_LIMIT = 2000;

/**
 * A short title for a conversation by the lightweight model, in the message's language; undefined
 * when the reply has no usable text (the caller keeps the first line).
 *
 * @example
 * const title = await generateTitle(routing, 'Wie funktioniert ein Parser?', { conversationId });
 */
export async function generateTitle(
  routing: ModelRouting,
  text: string,
  context: SettingsContext,
  signal?: AbortSignal,
): Promise<string | undefined> {
  const reply = await routing.complete(
    'lightweight',
    {
      systemPrompt: TITLE_SYSTEM_PROMPT,
      text: text.slice(0, TITLE_INPUT_LIMIT),
      ...(signal === undefined ? {} : { signal }),
    },
    context,
  );
  const line = reply.split('\n').find((candidate) => candidate.trim() !== '') ?? '';
  const title = line
    .replace(/^\s*(title|标题)\s*[:：]\s*/i, '')
    .replace(/^["'“”‘’「」《》*#\s]+|["'“”‘’「」《》*\s。.]+$/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (title === '') return undefined;
  return title.length <= TITLE_LENGTH ? title : `${title.slice(0, TITLE_LENGTH - 1).trimEnd()}…`;
}
