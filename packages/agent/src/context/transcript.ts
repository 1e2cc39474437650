import type { Message } from '../provider/index.ts';

/** Longest tool result or file text copied into a summary transcript, per entry. */
const ENTRY_LIMIT = 4_000;
/** The least of a cut entry worth keeping. */
const MIN_PARTIAL_ENTRY = 200;

function clip(text: string): string {
  return text.length <= ENTRY_LIMIT
    ? text
    : `${text.slice(0, ENTRY_LIMIT)} […${text.length - ENTRY_LIMIT} more characters]`;
}

/** One plain-text entry per message, so any model can summarise it without the tool protocol. */
export function renderTranscriptEntry(message: Message): string {
  switch (message.role) {
    case 'system':
      return `[system] ${message.content}`;
    case 'user':
      return `[user] ${message.content
        .map((block) =>
          block.type === 'text'
            ? block.text
            : block.type === 'image'
              ? '[image]'
              : `[file ${block.name}]\n${clip(block.text ?? `(${block.mediaType}, binary)`)}`,
        )
        .join('\n')}`;
    case 'assistant': {
      const calls = message.toolCalls.map((call) => `[tool call ${call.toolName}] ${clip(call.arguments)}`);
      return [`[assistant] ${message.content}`, ...calls].join('\n');
    }
    case 'tool':
      return `[tool result ${message.toolName}${message.isError ? ', error' : ''}] ${clip(message.content)}`;
  }
}

/**
 * The newest entries of `messages` that fit `maxCharacters`; older ones are dropped first, so an
 * overflowing summary request still sees the most recent work.
 */
export function renderTranscript(messages: readonly Message[], maxCharacters: number): string {
  const entries: string[] = [];
  let length = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message === undefined) continue;
    const entry = renderTranscriptEntry(message);
    if (length + entry.length > maxCharacters) {
      // Keep the start of the entry that does not fit whole, so a huge message is not lost entirely.
      const room = maxCharacters - length;
      if (room >= MIN_PARTIAL_ENTRY) entries.push(`${entry.slice(0, room)} […]`);
      if (index > 0) entries.push('[… earlier messages omitted …]');
      break;
    }
    entries.push(entry);
    length += entry.length + 2;
  }
  return entries.reverse().join('\n\n');
}
