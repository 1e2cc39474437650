import type { HitlCard, HitlCardStatus, HitlResolvedPayload } from '@youyou/contracts';
import type { EventError, RunDescription, RunUsage } from '../events/index.ts';

/** `streaming` while text still arrives; `incomplete` when the run ended before the part did. */
export type PartStatus = 'streaming' | 'running' | 'complete' | 'failed' | 'incomplete';

/** A piece of a message (spec §4.2); clients ignore part types they do not know. */
export type MessagePart =
  | { type: 'text'; text: string; status: PartStatus }
  | { type: 'thinking'; text: string; status: PartStatus }
  | { type: 'tool_call'; call_id: string; tool_name: string; arguments: string; status: PartStatus }
  | {
      type: 'tool_result';
      call_id: string;
      tool_name: string;
      output: string;
      is_error: boolean;
      duration_ms: number;
      status: PartStatus;
    }
  | { type: 'error'; error: EventError; fatal: boolean; status: PartStatus }
  | {
      type: 'attachment';
      upload_id: string;
      name: string;
      media_type: string;
      size: number;
      status: PartStatus;
    }
  | { type: 'skill'; name: string; arguments?: string; status: PartStatus }
  /** An artifact the turn wrote or changed (spec §4.2 artifact_ref): the chip that opens the viewer. */
  | {
      type: 'artifact';
      artifact_id: string;
      title: string;
      kind: string;
      version: number;
      change: 'create' | 'replace' | 'edit' | 'overflow';
      call_id?: string;
      status: PartStatus;
    }
  /** A HITL card (spec §4.5): `running` while it waits, with its resolution once it has one. */
  | {
      type: 'hitl';
      call_id: string;
      card: HitlCard;
      card_status: HitlCardStatus;
      resolution?: HitlResolvedPayload;
      status: PartStatus;
    };

export type MessageStatus = 'pending' | 'streaming' | 'complete' | 'failed' | 'cancelled' | 'interrupted';

/** Where a message sits among the alternatives at its place in the tree. */
export interface SiblingInfo {
  /** Every alternative at this place, oldest first, this message included. */
  ids: string[];
  index: number;
}

/** One node of the message tree. */
export interface ConversationMessage {
  id: string;
  role: 'user' | 'assistant';
  run_id: string;
  /** The message before this one; null for the first user message. */
  parent_id: string | null;
  status: MessageStatus;
  parts: MessagePart[];
  created_at: string;
  /** Filled in by the conversation Query; absent in a projection of events alone. */
  siblings?: SiblingInfo;
  model_id?: string | null;
  usage?: RunUsage;
}

/** One run's two messages, rebuilt from its events. */
export interface RunProjection {
  run: RunDescription;
  user: ConversationMessage;
  assistant: ConversationMessage;
  /** The seq of the last event applied. */
  last_seq: number;
}
