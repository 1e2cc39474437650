/**
 * The workbench API's shapes as the UI uses them. Events and messages are the server's own types
 * (`@youyou/server/client`); the resource shapes below are what its routes answer, checked
 * against the typed client in api-client.ts. The UI ignores event and part types it does not
 * know (spec §5).
 */
import type { HitlCard, HitlCardStatus, HitlResolvedPayload } from '@youyou/contracts';
import type { RunDescription as ServerRunDescription } from '@youyou/server/client';

export type {
  AttachmentReference,
  EventPayloads,
  MessageInput,
  RunUsage,
  WorkbenchEvent,
  WorkbenchEventType,
} from '@youyou/server/client';
import type { RunUsage } from '@youyou/server/client';

export type RunDescription = ServerRunDescription;
export type RunStatus = ServerRunDescription['status'];
export type RunPhase = ServerRunDescription['phase'];

export const IN_FLIGHT_STATUSES: ReadonlySet<RunStatus> = new Set(['pending', 'running', 'waiting_hitl']);

/** An error in an event or an error part; `source` is wider on the wire than in the server's types. */
export interface EventError {
  code: string;
  message: string;
  retryable: boolean;
  source?: string | undefined;
  details?: Readonly<Record<string, unknown>> | undefined;
}

export type PartStatus = 'streaming' | 'running' | 'complete' | 'failed' | 'incomplete';

/** A piece of a message (spec §4.2) as the Query returns it; unknown types are ignored. */
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
  | { type: 'skill'; name: string; arguments?: string | undefined; status: PartStatus }
  | {
      type: 'artifact';
      artifact_id: string;
      title: string;
      kind: string;
      version: number;
      change: 'create' | 'replace' | 'edit' | 'overflow';
      call_id?: string | undefined;
      status: PartStatus;
    }
  | {
      type: 'hitl';
      call_id: string;
      card: HitlCard;
      card_status: HitlCardStatus;
      resolution?: HitlResolvedPayload | undefined;
      status: PartStatus;
    };

export type MessageStatus = 'pending' | 'streaming' | 'complete' | 'failed' | 'cancelled' | 'interrupted';

export interface SiblingInfo {
  ids: string[];
  index: number;
}

export interface ConversationMessage {
  id: string;
  role: 'user' | 'assistant';
  run_id: string;
  parent_id: string | null;
  status: MessageStatus;
  parts: MessagePart[];
  created_at: string;
  siblings?: SiblingInfo | undefined;
  model_id?: string | null | undefined;
  usage?: RunUsage | undefined;
}

export interface Project {
  id: string;
  name: string;
  directory: string | null;
  created_at: string;
  updated_at: string;
}

export interface ConversationSummary {
  id: string;
  project_id: string | null;
  title: string;
  title_source: 'none' | 'auto' | 'user';
  model_id: string | null;
  active_run_id: string | null;
  last_seq: number;
  created_at: string;
  updated_at: string;
  /** How far the user has read (every browser's reading); later events are unread. */
  read_seq?: number | undefined;
  /** When the server reports it: the in-flight top-level run (background runs in the left column). */
  in_flight_run_id?: string | null;
}

export interface ConversationPage {
  conversations: ConversationSummary[];
  next_cursor?: string | undefined;
}

/** A run as the API describes it. */
export interface Run {
  id: string;
  conversation_id: string;
  parent_run_id: string | null;
  previous_run_id: string | null;
  user_message_id: string | null;
  status: RunStatus;
  phase: RunPhase;
  model_id: string | null;
  created_at: string;
}

/** The authoritative conversation Query: the active branch (newest page) with siblings. */
export interface ConversationQuery {
  conversation: ConversationSummary;
  messages: ConversationMessage[];
  /** Messages on the whole active branch; more than `messages` when earlier pages exist. */
  branch_length: number;
  /** Pass as `before` for the page before this one; absent on the first page. */
  earlier_cursor?: string | undefined;
  in_flight_run: Run | null;
  /** The runs of the messages shown, in order (status, phase, previous run). */
  runs?: Run[] | undefined;
  /** The seq the messages reflect: the SSE stream resumes after it. */
  last_seq: number;
}

export interface SendMessageRequest {
  text: string;
  attachments?: string[];
  skills?: { name: string; arguments?: string }[];
  model_id?: string;
  /** Editing: the user message this one replaces (a new branch beside it). */
  edit_of?: string;
}

export interface SendMessageResponse {
  run: Run;
  user_message_id: string;
  assistant_message_id: string;
  seq: number;
}

export interface Upload {
  id: string;
  name: string;
  media_type: string;
  size: number;
  created_at: string;
}

export type ProviderKind = 'openai-compatible' | 'anthropic';

export interface ModelConfig {
  id: string;
  display_name?: string | undefined;
  context_window?: number | undefined;
}

export interface ProviderConfig {
  id: string;
  name: string;
  kind: ProviderKind;
  base_url: string;
  has_api_key: boolean;
  models: ModelConfig[];
  enabled: boolean;
}

export interface ProviderInput {
  name: string;
  kind: ProviderKind;
  base_url: string;
  api_key?: string;
  models?: ModelConfig[];
}

export interface ProviderTestResult {
  ok: boolean;
  models: string[];
  error?: { code: string; message: string } | undefined;
  /** Measured by the client around the test call. */
  latency_ms?: number;
}

export interface ModelOption {
  /** `provider/model` as the agent routes it. */
  id: string;
  provider: string;
  display_name: string;
}

export interface ModelsResponse {
  models: ModelOption[];
  default_model: string | null;
}

export type ComponentKind = 'tool' | 'skill' | 'plugin';
export type ComponentLayer = 'programmatic' | 'global' | 'project';

export interface ComponentEntry {
  kind: ComponentKind;
  name: string;
  layer: ComponentLayer;
  path?: string | undefined;
  overriddenBy?: ComponentLayer | undefined;
  enabled: boolean;
  description: string;
}

export interface ComponentDiagnostic {
  path: string;
  reason: string;
  kind?: ComponentKind | undefined;
  layer?: 'global' | 'project' | undefined;
  severity: 'error' | 'warning';
  line?: number | undefined;
}

export interface ComponentListing {
  components: ComponentEntry[];
  diagnostics: ComponentDiagnostic[];
}

export interface ComponentDocument {
  kind: ComponentKind;
  name: string;
  layer: 'global' | 'project';
  entry: string;
  frontMatter: Readonly<Record<string, unknown>>;
  body: string;
  files: string[];
  warnings: { message: string; line?: number | undefined }[];
}

export interface ComponentDraft {
  kind: ComponentKind;
  name: string;
  layer: 'global' | 'project';
  frontMatter?: Readonly<Record<string, unknown>>;
  body?: string;
  files?: { path: string; content: string; executable?: boolean }[];
}

/** User preferences the server keeps (spec §4.15: local at once, synced to the server). */
export type Preferences = Readonly<Record<string, unknown>>;

/** The error body of every failed API call. */
export interface ErrorBody {
  error: {
    code: string;
    message: string;
    retryable: boolean;
    details?: Readonly<Record<string, unknown>>;
    request_id?: string;
  };
}

export interface Health {
  status: 'ok';
  version: string;
}
