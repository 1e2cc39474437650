import { FAILED_NOTE, INTERRUPTED_NOTE } from '../config/index.ts';
import { applyCompaction } from '../context/index.ts';
import type { AssistantMessage, Message, ToolCallRequest } from '../provider/index.ts';
import type { SessionRecord } from './session-record.ts';

/** The notes placed after cut-short replies; `AgentConfig.interruptedNote`/`failedNote`. */
export interface RebuildNotes {
  interruptedNote: string;
  failedNote: string;
}

export interface RebuiltSession {
  messages: Message[];
  modelId: string | undefined;
  title: string | undefined;
  turnCount: number;
  /** User and assistant messages recorded, compacted ones included. */
  messageCount: number;
}

/**
 * Replays stored records into the exact message list the live session had: interruption notes after
 * incomplete replies (and their tool results), compactions applied where they happened. Pass the
 * agent's notes when they are configured, so the rebuilt list matches the live one.
 */
export function rebuildContext(
  records: readonly SessionRecord[],
  notes: RebuildNotes = { interruptedNote: INTERRUPTED_NOTE, failedNote: FAILED_NOTE },
): RebuiltSession {
  let messages: Message[] = [];
  let modelId: string | undefined;
  let title: string | undefined;
  const turns = new Set<string>();
  let assistant: { message: AssistantMessage; calls: ToolCallRequest[] } | undefined;
  let pendingNote: string | undefined;

  const closeAssistant = (): void => {
    if (pendingNote !== undefined) messages.push({ role: 'system', content: pendingNote });
    pendingNote = undefined;
    assistant = undefined;
  };

  for (const record of records) {
    switch (record.type) {
      case 'metadata':
        if (record.kind === 'session_created') modelId = record.modelId;
        else if (record.kind === 'title') title = record.title;
        else {
          closeAssistant();
          messages = applyCompaction(
            messages,
            { keptFrom: record.keptFrom, keptUserMessages: [...record.keptUserMessages] },
            record.summary,
          );
        }
        break;
      case 'user_message':
        closeAssistant();
        turns.add(record.turnId);
        messages.push({ role: 'user', content: record.content });
        break;
      case 'system_message':
        closeAssistant();
        messages.push({ role: 'system', content: record.content });
        break;
      case 'assistant_message': {
        closeAssistant();
        const calls: ToolCallRequest[] = [];
        const message: AssistantMessage = {
          role: 'assistant',
          content: record.content,
          ...(record.reasoning === undefined ? {} : { reasoning: record.reasoning }),
          toolCalls: calls,
          status: record.status,
          ...(record.providerMetadata === undefined ? {} : { providerMetadata: record.providerMetadata }),
        };
        messages.push(message);
        assistant = { message, calls };
        if (record.status === 'incomplete')
          pendingNote = record.interruptedBy === 'error' ? notes.failedNote : notes.interruptedNote;
        break;
      }
      case 'tool_call':
        assistant?.calls.push({
          callId: record.callId,
          toolName: record.toolName,
          arguments: record.arguments,
        });
        break;
      case 'tool_result':
        messages.push({
          role: 'tool',
          callId: record.callId,
          toolName: record.toolName,
          content: record.content,
          isError: record.isError,
        });
        break;
    }
  }
  closeAssistant();
  const messageCount = records.filter(
    (record) => record.type === 'user_message' || record.type === 'assistant_message',
  ).length;
  return { messages, modelId, title, turnCount: turns.size, messageCount };
}
