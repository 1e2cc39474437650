import type { EventPayloads, WorkbenchEvent } from '../events/index.ts';
import type {
  ConversationMessage,
  MessagePart,
  MessageStatus,
  PartStatus,
  RunProjection,
} from './message-types.ts';

const TERMINAL_MESSAGE_STATUSES: ReadonlySet<MessageStatus> = new Set([
  'complete',
  'failed',
  'cancelled',
  'interrupted',
]);

function createdProjection(event: WorkbenchEvent & { type: 'run.created' }): RunProjection {
  const { payload } = event;
  const userParts: MessagePart[] = [];
  if (payload.input.text !== '')
    userParts.push({ type: 'text', text: payload.input.text, status: 'complete' });
  for (const attachment of payload.input.attachments) {
    userParts.push({ type: 'attachment', ...attachment, status: 'complete' });
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
  const user: ConversationMessage = {
    id: payload.user_message_id,
    role: 'user',
    run_id: run.id,
    parent_id: run.previous_run_id,
    status: 'complete',
    parts: userParts,
    created_at: run.created_at,
  };
  const assistant: ConversationMessage = {
    id: payload.assistant_message_id,
    role: 'assistant',
    run_id: run.id,
    parent_id: payload.user_message_id,
    status: 'pending',
    parts: [],
    created_at: run.created_at,
    model_id: run.model_id,
  };
  return { run: { ...run }, user, assistant, last_seq: event.seq };
}

/** Ends the open text or thinking part. */
function closeOpenPart(parts: MessagePart[], status: PartStatus): void {
  const last = parts.at(-1);
  if ((last?.type === 'text' || last?.type === 'thinking') && last.status === 'streaming')
    last.status = status;
}

function appendText(message: ConversationMessage, type: 'text' | 'thinking', text: string): void {
  const last = message.parts.at(-1);
  if (last?.type === type && last.status === 'streaming') {
    last.text += text;
    return;
  }
  closeOpenPart(message.parts, 'complete');
  message.parts.push({ type, text, status: 'streaming' });
}

function finish(projection: RunProjection, status: MessageStatus): void {
  const message = projection.assistant;
  message.status = status;
  const leftover: PartStatus = status === 'complete' ? 'complete' : 'incomplete';
  for (const part of message.parts) {
    if (part.status === 'streaming' || part.status === 'running') part.status = leftover;
  }
}

function toolResult(message: ConversationMessage, payload: EventPayloads['tool.result']): void {
  const call = message.parts.findLast(
    (part) => part.type === 'tool_call' && part.call_id === payload.call_id,
  );
  if (call !== undefined) call.status = payload.success ? 'complete' : 'failed';
  message.parts.push({
    type: 'tool_result',
    call_id: payload.call_id,
    tool_name: payload.tool_name,
    output: payload.output,
    is_error: !payload.success,
    duration_ms: payload.duration_ms,
    status: 'complete',
  });
}

/** One chip per artifact in a message, showing its newest version. */
function artifactPart(
  message: ConversationMessage,
  event: WorkbenchEvent & { type: 'artifact.created' | 'artifact.updated' },
): void {
  const { artifact } = event.payload;
  const change =
    event.type === 'artifact.created'
      ? event.payload.overflow_of === undefined
        ? 'create'
        : 'overflow'
      : event.payload.change === 'edit'
        ? 'edit'
        : 'replace';
  const existing = message.parts.find((part) => part.type === 'artifact' && part.artifact_id === artifact.id);
  if (existing?.type === 'artifact') {
    existing.version = artifact.version;
    existing.title = artifact.title;
    if (existing.change !== 'create' && existing.change !== 'overflow') existing.change = change;
    return;
  }
  closeOpenPart(message.parts, 'complete');
  message.parts.push({
    type: 'artifact',
    artifact_id: artifact.id,
    title: artifact.title,
    kind: artifact.kind,
    version: artifact.version,
    change,
    ...(event.payload.call_id === undefined ? {} : { call_id: event.payload.call_id }),
    status: 'complete',
  });
}

/**
 * Applies one event to a run's projection and returns it (a new one for `run.created`). Events of
 * other runs, events before `run.created` and events already applied (seq ≤ last_seq) change
 * nothing, so replaying a stream with repeats is safe. The conversation Query uses this same
 * function, so a client that applies every event ends where the Query is.
 *
 * @example
 * let projection: RunProjection | undefined;
 * for (const event of events) projection = applyRunEvent(projection, event);
 */
export function applyRunEvent(
  projection: RunProjection | undefined,
  event: WorkbenchEvent,
): RunProjection | undefined {
  if (event.type === 'run.created') return projection ?? createdProjection(event);
  if (projection === undefined || event.run_id !== projection.run.id || event.seq <= projection.last_seq) {
    return projection;
  }
  projection.last_seq = event.seq;
  const message = projection.assistant;
  switch (event.type) {
    case 'run.phase':
      projection.run.phase = event.payload.phase;
      projection.run.status = event.payload.status;
      if (message.status === 'pending' && event.payload.status === 'running') message.status = 'streaming';
      break;
    case 'message.delta':
      appendText(message, 'text', event.payload.text);
      break;
    case 'thinking.delta':
      appendText(message, 'thinking', event.payload.text);
      break;
    case 'tool.call':
      closeOpenPart(message.parts, 'complete');
      message.parts.push({
        type: 'tool_call',
        call_id: event.payload.call_id,
        tool_name: event.payload.tool_name,
        arguments: event.payload.arguments,
        status: 'running',
      });
      break;
    case 'tool.result':
      toolResult(message, event.payload);
      break;
    case 'error':
      closeOpenPart(message.parts, 'complete');
      message.parts.push({ type: 'error', error: event.payload.error, fatal: false, status: 'complete' });
      break;
    case 'run.completed':
      projection.run.status = 'completed';
      projection.run.phase = 'done';
      message.usage = event.payload.usage;
      finish(projection, 'complete');
      break;
    case 'run.failed':
      projection.run.status = 'failed';
      projection.run.phase = 'done';
      if (event.payload.usage !== undefined) message.usage = event.payload.usage;
      finish(projection, 'failed');
      message.parts.push({ type: 'error', error: event.payload.error, fatal: true, status: 'complete' });
      break;
    case 'run.cancelled':
      projection.run.status = 'cancelled';
      projection.run.phase = 'done';
      if (event.payload.usage !== undefined) message.usage = event.payload.usage;
      finish(projection, 'cancelled');
      break;
    case 'run.interrupted':
      projection.run.status = 'interrupted';
      projection.run.phase = 'done';
      finish(projection, 'interrupted');
      break;
    case 'hitl.request':
      closeOpenPart(message.parts, 'complete');
      message.parts.push({
        type: 'hitl',
        call_id: event.payload.call_id,
        card: event.payload.card,
        card_status: 'pending',
        status: 'running',
      });
      break;
    case 'hitl.resolved': {
      const card = message.parts.findLast(
        (part) => part.type === 'hitl' && part.card.id === event.payload.card_id,
      );
      if (card?.type === 'hitl') {
        card.card_status = event.payload.status;
        card.resolution = event.payload;
        card.status = 'complete';
      }
      break;
    }
    case 'artifact.created':
    case 'artifact.updated':
      artifactPart(message, event);
      break;
    case 'artifact.deleted':
    case 'agent.spawn':
    case 'agent.progress':
    case 'agent.result':
    case 'context.compacted':
    case 'conversation.updated':
    case 'plan.update':
    case 'todo.update':
    case 'session.record':
      break;
  }
  return projection;
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
