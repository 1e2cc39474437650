/**
 * The workbench API's shapes as the UI uses them. They mirror `@youyou/server` (its event and
 * projection types, issue 5); the UI tolerates fields it does not know and ignores unknown event
 * and part types (spec §5).
 */

export type RunStatus =
  'pending' | 'running' | 'waiting_hitl' | 'completed' | 'failed' | 'cancelled' | 'interrupted';
export type RunPhase = 'pending' | 'thinking' | 'acting' | 'responding' | 'done';
export type RunKind = 'conversation' | 'subagent' | 'tool' | 'session';

export const IN_FLIGHT_STATUSES: ReadonlySet<RunStatus> = new Set(['pending', 'running', 'waiting_hitl']);

export interface EventError {
  code: string;
  message: string;
  retryable: boolean;
  source?: string;
  details?: Readonly<Record<string, unknown>>;
}

export interface RunUsage {
  input_tokens: number;
  output_tokens: number;
  tool_calls: number;
  model_calls: number;
  duration_ms: number;
}

export interface AttachmentReference {
  upload_id: string;
  name: string;
  media_type: string;
  size: number;
}

export interface MessageInput {
  text: string;
  attachments: AttachmentReference[];
  skills: { name: string; arguments?: string }[];
}

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

export interface EventPayloads {
  'run.created': {
    run: RunDescription;
    input: MessageInput;
    user_message_id: string;
    assistant_message_id: string;
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
  error: { message_id: string; error: EventError };
  'run.completed': { message_id: string; usage: RunUsage };
  'run.failed': { message_id: string; error: EventError; usage?: RunUsage };
  'run.cancelled': { message_id: string; usage?: RunUsage };
  'run.interrupted': { message_id: string; reason: 'crash' | 'shutdown' };
  'conversation.updated': {
    title: string;
    title_source: 'none' | 'auto' | 'user';
    active_run_id: string | null;
  };
}

export type WorkbenchEventType = keyof EventPayloads;

/** The envelope of every event (spec §4.2), discriminated on `type`. */
export type WorkbenchEvent = {
  [Type in WorkbenchEventType]: {
    seq: number;
    run_id: string | null;
    conversation_id: string;
    ts: string;
    v: number;
    type: Type;
    payload: EventPayloads[Type];
  };
}[WorkbenchEventType];

export type PartStatus = 'streaming' | 'running' | 'complete' | 'failed' | 'incomplete';

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
  | { type: 'skill'; name: string; arguments?: string; status: PartStatus };

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
  siblings?: SiblingInfo;
  model_id?: string | null;
  usage?: RunUsage;
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
  /** The in-flight top-level run, when one is running (background runs in the left column). */
  running_run_id?: string | null;
}

export interface ConversationPage {
  conversations: ConversationSummary[];
  next_cursor?: string | null;
}

/** The authoritative conversation Query: the active branch with siblings. */
export interface ConversationQuery {
  conversation: ConversationSummary;
  messages: ConversationMessage[];
  /** Runs of the active branch (their status drives "interrupted/cancelled" marks and folding). */
  runs?: RunDescription[];
  /** The seq the messages reflect: the SSE stream resumes after it. */
  last_seq: number;
}

export interface SendMessageRequest {
  text: string;
  attachments?: string[];
  skills?: { name: string; arguments?: string }[];
  model_id?: string;
  /**
   * Branch: the new turn follows this run instead of the active leaf (editing a past user message
   * sends it after the run before it; null starts from the top). Absent: after the active leaf.
   */
  previous_run_id?: string | null;
}

export interface SendMessageResponse {
  run: RunDescription;
  user_message_id: string;
  assistant_message_id: string;
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
  name?: string;
  context_window?: number;
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
  models?: string[];
  error?: EventError;
  latency_ms?: number;
}

export interface ModelOption {
  /** `provider/model` as the agent routes it. */
  id: string;
  provider_id: string;
  provider_name: string;
  name: string;
}

export interface ModelsResponse {
  models: ModelOption[];
  default_model_id: string | null;
}

export type ComponentKind = 'tool' | 'skill' | 'plugin';
export type ComponentLayer = 'programmatic' | 'global' | 'project';

export interface ComponentEntry {
  kind: ComponentKind;
  name: string;
  layer: ComponentLayer;
  path?: string;
  overriddenBy?: ComponentLayer;
  enabled: boolean;
  description: string;
}

export interface ComponentDiagnostic {
  path: string;
  reason: string;
  kind?: ComponentKind;
  layer?: 'global' | 'project';
  severity?: 'error' | 'warning';
  line?: number;
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
  warnings: { message: string; line?: number }[];
}

export interface ComponentDraft {
  kind: ComponentKind;
  name: string;
  layer: 'global' | 'project';
  frontMatter?: Readonly<Record<string, unknown>>;
  body?: string;
  entry?: string;
  files?: { path: string; content: string; executable?: boolean }[];
}

/** User preferences the server keeps (spec §4.15: local at once, synced to the server). */
export type Preferences = Readonly<Record<string, unknown>>;

/** The error body of every failed API call. */
export interface ErrorBody {
  error: EventError & { request_id?: string };
}

export interface Health {
  ok: boolean;
  version?: string;
}
