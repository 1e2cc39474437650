import { ApiError } from '../errors/index.ts';
import type { ServerServices } from '../services/index.ts';
import { titleFromText, type SendResult } from '../runs/index.ts';

/** A message of another protocol's history, reduced to what a transcript needs. */
export interface ForeignMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool' | string;
  text: string;
}

/** Conversation ids a client may choose (AG-UI thread ids). */
const CLIENT_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

/**
 * The text the agent gets for a turn started by another protocol: the client's instructions and
 * the history it holds that the workbench does not (a conversation begun elsewhere), then the new
 * user message. A conversation the workbench already holds needs only the new message: its
 * history is the workbench's own.
 *
 * @example
 * turnText([{ role: 'system', text: 'Be brief.' }, { role: 'user', text: 'Hi' }], { known: false });
 * // 'Instructions from the client:\nBe brief.\n\n---\n\nHi'
 */
export function turnText(messages: readonly ForeignMessage[], options: { known: boolean }): string {
  const lastUser = messages.findLastIndex((message) => message.role === 'user');
  if (lastUser === -1) {
    throw new ApiError('INVALID_INPUT', 'The messages need a user message to answer.', {
      details: { field: 'messages' },
    });
  }
  const latest = messages[lastUser]?.text ?? '';
  const instructions = messages
    .filter((message) => message.role === 'system' || message.role === 'developer')
    .map((message) => message.text)
    .filter((text) => text.trim() !== '');
  const sections: string[] = [];
  if (instructions.length > 0) sections.push(`Instructions from the client:\n${instructions.join('\n\n')}`);
  if (!options.known) {
    const earlier = messages
      .slice(0, lastUser)
      .filter((message) => ['user', 'assistant', 'tool'].includes(message.role) && message.text.trim() !== '')
      .map((message) => `${message.role}: ${message.text}`);
    if (earlier.length > 0) sections.push(`The conversation so far:\n${earlier.join('\n\n')}`);
  }
  if (latest.trim() === '') {
    throw new ApiError('INVALID_INPUT', 'The last user message has no text.', {
      details: { field: 'messages' },
    });
  }
  return sections.length === 0 ? latest : `${sections.join('\n\n')}\n\n---\n\n${latest}`;
}

/**
 * Starts a run for a protocol endpoint: in `conversationId` when it exists, else in a new
 * conversation (with that id, when the client chose one). Returns the send result and whether
 * the conversation was already known.
 */
export async function startProtocolTurn(
  services: ServerServices,
  options: {
    conversationId?: string | undefined;
    messages: readonly ForeignMessage[];
    modelId?: string | undefined;
    /** The agent profile the turn runs with (kept on the conversation for its later turns). */
    profileId?: string | undefined;
  },
): Promise<{ conversationId: string; known: boolean; sent: SendResult }> {
  let conversationId = options.conversationId;
  let known = false;
  if (conversationId !== undefined) {
    if (!CLIENT_ID.test(conversationId)) {
      throw new ApiError('INVALID_INPUT', 'A thread id is letters, digits, _ . : - (at most 128).', {
        details: { field: 'threadId' },
      });
    }
    known = (await services.conversations.find(conversationId)) !== undefined;
  }
  const text = turnText(options.messages, { known });
  if (!known) {
    const row = await services.conversations.create({
      id: conversationId ?? crypto.randomUUID(),
      projectId: null,
      // The client's words, not the transcript around them.
      title: titleFromText(options.messages.findLast((message) => message.role === 'user')?.text ?? ''),
      modelId: null,
      ...(options.profileId === undefined ? {} : { profileId: options.profileId }),
      now: Date.now(),
    });
    conversationId = row.id;
  } else if (options.profileId !== undefined) {
    // A client that picks another profile switches the conversation to it, as the web UI's picker does.
    await services.conversations.update(
      conversationId as string,
      { profile_id: options.profileId },
      Date.now(),
    );
  }
  const sent = await services.runs.send(conversationId as string, {
    text,
    ...(options.modelId === undefined ? {} : { model_id: options.modelId }),
  });
  return { conversationId: conversationId as string, known, sent };
}
