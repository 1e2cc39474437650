import type { EventOfType, EventPayloads, WorkbenchEvent } from '../events/index.ts';
import type { ConversationMessage, MessagePart, MessageStatus, PartStatus } from '../messages/index.ts';
import type { RunDescription } from '../runs/index.ts';

/**
 * One run's two messages, rebuilt from its events. Treat it as immutable: `applyRunEvent` returns
 * a new object for every change (the same object when nothing changed), so a UI can compare by
 * reference. Fields a caller adds to it (a client's clock, say) are carried over.
 */
export interface RunProjection {
  run: RunDescription;
  user: ConversationMessage;
  assistant: ConversationMessage;
  /** The seq of the last event applied. */
  last_seq: number;
}

const TERMINAL_MESSAGE_STATUSES: ReadonlySet<MessageStatus> = new Set([
  'complete',
  'failed',
  'cancelled',
  'interrupted',
]);

/**
 * The projection a `run.created` event starts: the user message from the input, an empty
 * pending answer.
 *
 * @example
 * const projection = createRunProjection(createdEvent);
 * projection.assistant.status; // 'pending'
 */
export function createRunProjection(event: EventOfType<'run.created'>): RunProjection {
  const { payload } = event;
  const userParts: MessagePart[] = [];
  if (payload.input.text !== '')
    userParts.push({ type: 'text', text: payload.input.text, status: 'complete' });
  for (const attachment of payload.input.attachments) {
    userParts.push({ type: 'attachment', ...attachment, status: 'complete' });
  }
  for (const reference of payload.input.references ?? []) {
    userParts.push({ type: 'reference', ...reference, status: 'complete' });
  }
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
    run: { ...run },
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
    last_seq: event.seq,
  };
}

function withParts(message: ConversationMessage, parts: MessagePart[]): ConversationMessage {
  return { ...message, parts };
}

/** Ends the open text or thinking part. */
function closeOpenPart(parts: readonly MessagePart[], status: PartStatus): MessagePart[] {
  const last = parts.at(-1);
  if ((last?.type === 'text' || last?.type === 'thinking') && last.status === 'streaming') {
    return [...parts.slice(0, -1), { ...last, status }];
  }
  return [...parts];
}

function appendText(
  message: ConversationMessage,
  type: 'text' | 'thinking',
  text: string,
): ConversationMessage {
  const streaming: ConversationMessage =
    message.status === 'pending' ? { ...message, status: 'streaming' } : message;
  const last = message.parts.at(-1);
  if (last?.type === type && last.status === 'streaming') {
    return withParts(streaming, [...message.parts.slice(0, -1), { ...last, text: last.text + text }]);
  }
  return withParts(streaming, [
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
  // Files the result produced (an MCP tool's images) show after it, as attachments do.
  for (const attachment of payload.attachments ?? []) {
    parts.push({ type: 'attachment', ...attachment, status: 'complete' });
  }
  return withParts(message, parts);
}

/** One chip per artifact in a message, showing its newest version. */
function withArtifact(
  message: ConversationMessage,
  event: EventOfType<'artifact.created'> | EventOfType<'artifact.updated'>,
): ConversationMessage {
  const { artifact } = event.payload;
  const change =
    event.type === 'artifact.created'
      ? event.payload.overflow_of === undefined
        ? 'create'
        : 'overflow'
      : event.payload.change === 'edit'
        ? 'edit'
        : 'replace';
  const index = message.parts.findIndex(
    (part) => part.type === 'artifact' && part.artifact_id === artifact.id,
  );
  const existing = message.parts[index];
  if (existing?.type === 'artifact') {
    const parts = [...message.parts];
    parts[index] = {
      ...existing,
      version: artifact.version,
      title: artifact.title,
      // The chip says how the artifact came to be: a later edit does not hide that this turn made it.
      change: existing.change === 'create' || existing.change === 'overflow' ? existing.change : change,
    };
    return withParts(message, parts);
  }
  return withParts(message, [
    ...closeOpenPart(message.parts, 'complete'),
    {
      type: 'artifact',
      artifact_id: artifact.id,
      title: artifact.title,
      kind: artifact.kind,
      version: artifact.version,
      change,
      ...(event.payload.call_id === undefined ? {} : { call_id: event.payload.call_id }),
      status: 'complete',
    },
  ]);
}

function ended<Projection extends RunProjection>(
  projection: Projection,
  status: 'completed' | 'failed' | 'cancelled' | 'interrupted',
  assistant: ConversationMessage,
): Projection {
  return { ...projection, run: { ...projection.run, status, phase: 'done' }, assistant };
}

/** The next projection for an event of this run that is newer than the projection. */
function next<Projection extends RunProjection>(projection: Projection, event: WorkbenchEvent): Projection {
  const message = projection.assistant;
  const advanced: Projection = { ...projection, last_seq: event.seq };
  switch (event.type) {
    case 'run.phase':
      return {
        ...advanced,
        run: { ...projection.run, phase: event.payload.phase, status: event.payload.status },
        assistant:
          message.status === 'pending' && event.payload.status === 'running'
            ? { ...message, status: 'streaming' }
            : message,
      };
    case 'message.delta':
      return { ...advanced, assistant: appendText(message, 'text', event.payload.text) };
    case 'thinking.delta':
      return { ...advanced, assistant: appendText(message, 'thinking', event.payload.text) };
    case 'tool.call':
      return {
        ...advanced,
        assistant: withParts(message, [
          ...closeOpenPart(message.parts, 'complete'),
          {
            type: 'tool_call',
            call_id: event.payload.call_id,
            tool_name: event.payload.tool_name,
            arguments: event.payload.arguments,
            status: 'running',
          },
        ]),
      };
    case 'tool.result':
      return { ...advanced, assistant: addToolResult(message, event.payload) };
    case 'error':
      return {
        ...advanced,
        assistant: withParts(message, [
          ...closeOpenPart(message.parts, 'complete'),
          { type: 'error', error: event.payload.error, fatal: false, status: 'complete' },
        ]),
      };
    case 'run.completed':
      return ended(advanced, 'completed', {
        ...finish(message, 'complete'),
        usage: event.payload.usage,
        ...(event.payload.finish_reason === undefined ? {} : { finish_reason: event.payload.finish_reason }),
      });
    case 'run.failed': {
      const failed = finish(message, 'failed');
      return ended(advanced, 'failed', {
        ...failed,
        ...(event.payload.usage === undefined ? {} : { usage: event.payload.usage }),
        parts: [
          ...failed.parts,
          { type: 'error', error: event.payload.error, fatal: true, status: 'complete' },
        ],
      });
    }
    case 'run.cancelled':
      return ended(advanced, 'cancelled', {
        ...finish(message, 'cancelled'),
        ...(event.payload.usage === undefined ? {} : { usage: event.payload.usage }),
      });
    case 'run.interrupted':
      return ended(advanced, 'interrupted', finish(message, 'interrupted'));
    case 'artifact.created':
    case 'artifact.updated':
      return { ...advanced, assistant: withArtifact(message, event) };
    case 'hitl.request':
      return {
        ...advanced,
        assistant: withParts(message, [
          ...closeOpenPart(message.parts, 'complete'),
          {
            type: 'hitl',
            call_id: event.payload.call_id,
            card: event.payload.card,
            card_status: 'pending',
            status: 'running',
          },
        ]),
      };
    case 'hitl.resolved':
      return {
        ...advanced,
        assistant: withParts(
          message,
          message.parts.map((part): MessagePart =>
            part.type === 'hitl' && part.card.id === event.payload.card_id
              ? { ...part, card_status: event.payload.status, resolution: event.payload, status: 'complete' }
              : part,
          ),
        ),
      };
    case 'card.posted':
      return {
        ...advanced,
        assistant: withParts(message, [
          ...closeOpenPart(message.parts, 'complete'),
          {
            type: 'card',
            card_id: event.payload.card_id,
            source: event.payload.source,
            ...(event.payload.title === undefined ? {} : { title: event.payload.title }),
            ...(event.payload.call_id === undefined ? {} : { call_id: event.payload.call_id }),
            schema: event.payload.schema,
            status: 'complete',
          },
        ]),
      };
    case 'plan.update':
    case 'todo.update':
    case 'artifact.deleted':
    case 'agent.spawn':
    case 'agent.progress':
    case 'agent.result':
    case 'run.created':
    case 'context.compacted':
    case 'conversation.updated':
    case 'session.record':
    case 'memory.proposed':
    case 'memory.resolved':
      return advanced;
    default:
      // A type this projection does not draw (or one from a newer server): ignored (spec §5).
      return projection;
  }
}

/**
 * Applies one event to a run's projection and returns the result: a new projection for
 * `run.created`, a new object for a change, the same object when nothing changed. Events of other
 * runs, events before `run.created`, events already applied (seq ≤ last_seq) and unknown types
 * change nothing, so replaying a stream with repeats is safe. The server's conversation Query
 * uses this same function, so a client that applies every event ends where the Query is.
 *
 * @example
 * let projection: RunProjection | undefined;
 * for (const event of events) projection = applyRunEvent(projection, event);
 */
export function applyRunEvent<Projection extends RunProjection>(
  projection: Projection,
  event: WorkbenchEvent,
): Projection;
export function applyRunEvent(
  projection: RunProjection | undefined,
  event: WorkbenchEvent,
): RunProjection | undefined;
export function applyRunEvent(
  projection: RunProjection | undefined,
  event: WorkbenchEvent,
): RunProjection | undefined {
  if (event.type === 'run.created') return projection ?? createRunProjection(event);
  if (projection === undefined || event.run_id !== projection.run.id || event.seq <= projection.last_seq) {
    return projection;
  }
  return next(projection, event);
}

/**
 * True once the run's assistant message can no longer change.
 *
 * @example
 * if (isSettled(projection)) foldProcessParts(projection.assistant);
 */
export function isSettled(projection: RunProjection): boolean {
  return TERMINAL_MESSAGE_STATUSES.has(projection.assistant.status);
}
