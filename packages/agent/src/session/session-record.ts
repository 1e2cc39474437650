import type { ContentBlock } from '../content/index.ts';

interface RecordBase {
  /** Position in the session, from 0; storages keep records in this order. */
  sequence: number;
  /** Milliseconds since the epoch. */
  timestamp: number;
}

/** Session-level facts: creation, title, compaction (spec §3.7 "Metadata"). */
export type MetadataRecord = RecordBase & {
  type: 'metadata';
} & (
    | { kind: 'session_created'; modelId: string; cwd: string; systemPrompt?: string }
    | { kind: 'title'; title: string }
    | {
        kind: 'compaction';
        turnId: string;
        /** The summary that replaced the earlier messages; absent when they were truncated. */
        summary?: string;
        /** Index into the message list before compaction where the kept tail starts. */
        keptFrom: number;
        /** Indices of earlier user messages kept verbatim. */
        keptUserMessages: readonly number[];
      }
  );

export interface UserMessageRecord extends RecordBase {
  type: 'user_message';
  turnId: string;
  content: readonly ContentBlock[];
}

export interface AssistantMessageRecord extends RecordBase {
  type: 'assistant_message';
  turnId: string;
  content: string;
  reasoning?: string;
  status: 'complete' | 'incomplete';
  /** Why an incomplete reply stopped; decides the note added after it on resume. */
  interruptedBy?: 'cancel' | 'error';
  providerMetadata?: Readonly<Record<string, unknown>>;
}

export interface ToolCallRecord extends RecordBase {
  type: 'tool_call';
  turnId: string;
  callId: string;
  toolName: string;
  arguments: string;
}

export interface ToolResultRecord extends RecordBase {
  type: 'tool_result';
  turnId: string;
  callId: string;
  toolName: string;
  content: string;
  isError: boolean;
  durationMs: number;
  metadata?: Readonly<Record<string, unknown>>;
}

/** Text the agent put into the context: a skill prompt, a limit notice. */
export interface SystemMessageRecord extends RecordBase {
  type: 'system_message';
  turnId: string;
  kind: 'skill' | 'notice';
  content: string;
}

/** What a SessionStorage persists (spec §3.7). */
export type SessionRecord =
  | MetadataRecord
  | UserMessageRecord
  | AssistantMessageRecord
  | ToolCallRecord
  | ToolResultRecord
  | SystemMessageRecord;

/** Distributes Omit over the union so each record keeps its own fields. */
export type SessionRecordInit = SessionRecord extends infer R
  ? R extends SessionRecord
    ? Omit<R, 'sequence' | 'timestamp'>
    : never
  : never;
