import type {
  ConversationMessage,
  EventPayloads,
  MessagePart,
  MessageStatus,
  PartStatus,
  RunDescription,
  RunStatus,
  WorkbenchEvent,
} from '../api/index.ts';

/** One run's two messages, as the UI shows them. Immutable: every change makes new objects. */
export interface RunView {
  id: string;
  status: RunStatus;
  phase: RunDescription['phase'];
  previousRunId: string | null;
  user: ConversationMessage;
  assistant: ConversationMessage;
  /** Client clock: when the first event of this run was seen live, and when thinking ended. */
  startedAt?: number;
  thinkingEndedAt?: number;
  lastSeq: number;
}

const TERMINAL: ReadonlySet<MessageStatus> = new Set(['complete', 'failed', 'cancelled', 'interrupted']);

/** True once the run's answer can no longer change. */
export function isRunSettled(run: RunView): boolean {
  return TERMINAL.has(run.assistant.status);
}

function withParts(message: ConversationMessage, parts: MessagePart[]): ConversationMessage {
  return { ...message, parts };
}

function closeOpenPart(parts: MessagePart[], status: PartStatus): MessagePart[] {
  const last = parts.at(-1);
  if ((last?.type === 'text' || last?.type === 'thinking') && last.status === 'streaming') {
    return [...parts.slice(0, -1), { ...last, status }];
  }
  return parts;
}

function appendText(
  message: ConversationMessage,
  type: 'text' | 'thinking',
  text: string,
): ConversationMessage {
  const last = message.parts.at(-1);
  if (last?.type === type && last.status === 'streaming') {
    return withParts(message, [...message.parts.slice(0, -1), { ...last, text: last.text + text }]);
  }
  return withParts(message, [
    ...closeOpenPart(message.parts, 'complete'),
    { type, text, status: 'streaming' },
  ]);
}

function finish(message: ConversationMessage, status: MessageStatus): ConversationMessage {
  const leftover: PartStatus = status === 'complete' ? 'complete' : 'incomplete';
  return {
    ...message,
    status,
    parts: message.parts.map((part) =>
      part.status === 'streaming' || part.status === 'running' ? { ...part, status: leftover } : part,
    ),
  };
}

function addToolResult(
  message: ConversationMessage,
  payload: EventPayloads['tool.result'],
): ConversationMessage {
  const parts = message.parts.map((part): MessagePart =>
    part.type === 'tool_call' && part.call_id === payload.call_id
      ? { ...part, status: payload.success ? 'complete' : 'failed' }
      : part,
  );
  parts.push({
    type: 'tool_result',
    call_id: payload.call_id,
    tool_name: payload.tool_name,
    output: payload.output,
    is_error: !payload.success,
    duration_ms: payload.duration_ms,
    status: 'complete',
  });
  return withParts(message, parts);
}

/** A RunView from a `run.created` event. */
export function createdRun(event: WorkbenchEvent & { type: 'run.created' }, now: number): RunView {
  const { payload } = event;
  const userParts: MessagePart[] = [];
  if (payload.input.text !== '')
    userParts.push({ type: 'text', text: payload.input.text, status: 'complete' });
  for (const attachment of payload.input.attachments)
    userParts.push({ type: 'attachment', ...attachment, status: 'complete' });
  for (const skill of payload.input.skills) {
    userParts.push({
      type: 'skill',
      name: skill.name,
      ...(skill.arguments === undefined ? {} : { arguments: skill.arguments }),
      status: 'complete',
    });
  }
  const run = payload.run;
  return {
    id: run.id,
    status: run.status,
    phase: run.phase,
    previousRunId: run.previous_run_id,
    user: {
      id: payload.user_message_id,
      role: 'user',
      run_id: run.id,
      parent_id: run.previous_run_id,
      status: 'complete',
      parts: userParts,
      created_at: run.created_at,
    },
    assistant: {
      id: payload.assistant_message_id,
      role: 'assistant',
      run_id: run.id,
      parent_id: payload.user_message_id,
      status: 'pending',
      parts: [],
      created_at: run.created_at,
      model_id: run.model_id,
    },
    startedAt: now,
    lastSeq: event.seq,
  };
}

/**
 * Applies one event to a run and returns the new RunView (the same object when nothing changed).
 * Events of other runs and events at or below the run's last seq change nothing, so a replay with
 * repeats is safe. Mirrors the server's projection, which builds the conversation Query.
 *
 * @example
 * let run = createdRun(created, Date.now());
 * run = applyToRun(run, deltaEvent, Date.now());
 */
export function applyToRun(run: RunView, event: WorkbenchEvent, now: number): RunView {
  if (event.run_id !== run.id || event.seq <= run.lastSeq) return run;
  const next: RunView = { ...run, lastSeq: event.seq };
  next.startedAt ??= now;
  const message = run.assistant;
  switch (event.type) {
    case 'run.phase':
      next.phase = event.payload.phase;
      next.status = event.payload.status;
      if (message.status === 'pending' && event.payload.status === 'running') {
        next.assistant = { ...message, status: 'streaming' };
      }
      break;
    case 'message.delta':
      if (message.parts.at(-1)?.type === 'thinking') next.thinkingEndedAt ??= now;
      next.assistant = appendText({ ...message, status: 'streaming' }, 'text', event.payload.text);
      break;
    case 'thinking.delta':
      next.assistant = appendText({ ...message, status: 'streaming' }, 'thinking', event.payload.text);
      break;
    case 'tool.call':
      next.assistant = withParts(message, [
        ...closeOpenPart(message.parts, 'complete'),
        {
          type: 'tool_call',
          call_id: event.payload.call_id,
          tool_name: event.payload.tool_name,
          arguments: event.payload.arguments,
          status: 'running',
        },
      ]);
      break;
    case 'tool.result':
      next.assistant = addToolResult(message, event.payload);
      break;
    case 'error':
      next.assistant = withParts(message, [
        ...closeOpenPart(message.parts, 'complete'),
        { type: 'error', error: event.payload.error, fatal: false, status: 'complete' },
      ]);
      break;
    case 'run.completed':
      next.status = 'completed';
      next.phase = 'done';
      next.assistant = { ...finish(message, 'complete'), usage: event.payload.usage };
      break;
    case 'run.failed': {
      next.status = 'failed';
      next.phase = 'done';
      const failed = finish(message, 'failed');
      next.assistant = {
        ...failed,
        ...(event.payload.usage === undefined ? {} : { usage: event.payload.usage }),
        parts: [
          ...failed.parts,
          { type: 'error', error: event.payload.error, fatal: true, status: 'complete' },
        ],
      };
      break;
    }
    case 'run.cancelled':
      next.status = 'cancelled';
      next.phase = 'done';
      next.assistant = {
        ...finish(message, 'cancelled'),
        ...(event.payload.usage === undefined ? {} : { usage: event.payload.usage }),
      };
      break;
    case 'run.interrupted':
      next.status = 'interrupted';
      next.phase = 'done';
      next.assistant = finish(message, 'interrupted');
      break;
    case 'run.created':
    case 'context.compacted':
    case 'conversation.updated':
      break;
    default:
      // An event type from a newer server: ignored (spec §5).
      return run;
  }
  return next;
}
