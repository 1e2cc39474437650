import type { AgentErrorSource, SessionRecord } from '@youyou/agent';
import type {
  AgentProgressPayload,
  AgentResultPayload,
  AgentSpawnPayload,
  ArtifactCreatedPayload,
  ArtifactDeletedPayload,
  ArtifactUpdatedPayload,
  HitlRequestPayload,
  HitlResolvedPayload,
  PlanUpdatePayload,
  TodoUpdatePayload,
} from '@youyou/contracts';
import type { RunKind, RunPhase, RunStatus } from '../database/index.ts';

/**
 * The envelope version (spec §5: consumers check `v` and ignore unknown types).
 *
 * @example
 * if (event.v > EVENT_VERSION) showUpgradeHint();
 */
export const EVENT_VERSION = 1;

/** An error as it travels in events and error parts. */
export interface EventError {
  code: string;
  message: string;
  retryable: boolean;
  source?: AgentErrorSource | 'server';
  details?: Readonly<Record<string, unknown>>;
}

/** Token, time and call counts of a run (spec §4.17). */
export interface RunUsage {
  input_tokens: number;
  output_tokens: number;
  tool_calls: number;
  model_calls: number;
  duration_ms: number;
}

/** An uploaded file a message refers to. */
export interface AttachmentReference {
  upload_id: string;
  name: string;
  media_type: string;
  size: number;
}

/** What the user sent, as the client gave it (uploads by reference, never their bytes). */
export interface MessageInput {
  text: string;
  attachments: AttachmentReference[];
  skills: { name: string; arguments?: string }[];
}

/** A run as events describe it. */
export interface RunDescription {
  id: string;
  conversation_id: string;
  parent_run_id: string | null;
  previous_run_id: string | null;
  user_message_id: string | null;
  kind: RunKind;
  status: RunStatus;
  phase: RunPhase;
  model_id: string | null;
  created_at: string;
}

/** The payload of each event type. */
export interface EventPayloads {
  'run.created': {
    run: RunDescription;
    input: MessageInput;
    user_message_id: string;
    assistant_message_id: string;
    /** Set when this run answers the same user message again (regenerate). */
    regenerated_from?: string;
  };
  'run.phase': { phase: RunPhase; status: RunStatus };
  'message.delta': { message_id: string; text: string };
  'thinking.delta': { message_id: string; text: string };
  'tool.call': {
    message_id: string;
    call_id: string;
    tool_name: string;
    arguments: string;
    tool_run_id: string;
  };
  'tool.result': {
    message_id: string;
    call_id: string;
    tool_name: string;
    output: string;
    success: boolean;
    duration_ms: number;
    tool_run_id: string;
  };
  'context.compacted': {
    strategy: 'summary' | 'truncation';
    tokens_before: number;
    tokens_after: number;
    messages_removed: number;
  };
  /** A problem the run survives (a storage hiccup); a fatal one arrives as run.failed. */
  error: { message_id: string; error: EventError };
  'run.completed': { message_id: string; usage: RunUsage };
  'run.failed': { message_id: string; error: EventError; usage?: RunUsage };
  /** `superseded`: the user's reply to a waiting card was another request, which started a new turn. */
  'run.cancelled': { message_id: string; usage?: RunUsage; reason?: 'superseded' };
  'run.interrupted': { message_id: string; reason: 'crash' | 'shutdown' };
  /** What changed: only the fields present. */
  'conversation.updated': {
    title?: string;
    title_source?: 'none' | 'auto' | 'user';
    active_run_id?: string | null;
    /** Set when a run starts, null when it ends. */
    in_flight_run_id?: string | null;
    /** The user read up to here (on any device). */
    read_seq?: number;
    model_id?: string | null;
    project_id?: string | null;
  };
  /** Artifacts (spec §4.3); run_id is the run (turn or sub-agent) that wrote it. */
  'artifact.created': ArtifactCreatedPayload;
  'artifact.updated': ArtifactUpdatedPayload;
  'artifact.deleted': ArtifactDeletedPayload;
  /** Sub-agents (spec §4.2); run_id is the sub-agent's own run. */
  'agent.spawn': AgentSpawnPayload;
  'agent.progress': AgentProgressPayload;
  'agent.result': AgentResultPayload;
  /** A HITL card the run waits on (spec §4.5). */
  'hitl.request': HitlRequestPayload;
  /** How a card ended: answered (and how free input was routed), expired, cancelled, superseded. */
  'hitl.resolved': HitlResolvedPayload;
  /** The conversation's whole plan, with its version. */
  'plan.update': PlanUpdatePayload;
  /** The conversation's whole todo list, with its version. */
  'todo.update': TodoUpdatePayload;
  /** A record of the agent's session (one source of truth); stored, never streamed. */
  'session.record': { record: SessionRecord };
}

export type WorkbenchEventType = keyof EventPayloads;

/**
 * Events that live in the log but are not sent to clients.
 *
 * @example
 * INTERNAL_EVENT_TYPES.has('session.record'); // true: stored, never streamed
 */
export const INTERNAL_EVENT_TYPES: ReadonlySet<string> = new Set<WorkbenchEventType>(['session.record']);

/** The envelope of every event (spec §4.2), discriminated on `type`. */
export type WorkbenchEvent = {
  [Type in WorkbenchEventType]: {
    seq: number;
    run_id: string | null;
    conversation_id: string;
    /** ISO 8601. */
    ts: string;
    v: number;
    type: Type;
    payload: EventPayloads[Type];
  };
}[WorkbenchEventType];

/** An event before the log numbers it. */
export type NewEvent = {
  [Type in WorkbenchEventType]: { run_id: string | null; type: Type; payload: EventPayloads[Type] };
}[WorkbenchEventType];
