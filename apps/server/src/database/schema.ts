// Run states, phases and kinds are the contract's (spec §4.2); the tables store them as text.
export { IN_FLIGHT_STATUSES, RUN_KINDS, RUN_PHASES, RUN_STATUSES } from '@youyou/contracts';
export type { RunKind, RunPhase, RunStatus } from '@youyou/contracts';
import type { Generated } from 'kysely';
import type { RunKind, RunPhase, RunStatus } from '@youyou/contracts';
import type { HitlSchema } from './hitl-schema.ts';
import type { IdempotencySchema } from './idempotency-schema.ts';
import type { KnowledgeSchema } from './knowledge-schema.ts';

/** Every table keeps an `owner`, reserved for multi-user deployments (spec §2.2); null today. */
interface Owned {
  owner: string | null;
}

export interface ProjectsTable extends Owned {
  id: string;
  name: string;
  directory: string | null;
  created_at: number;
  updated_at: number;
}

export interface ConversationsTable extends Owned {
  id: string;
  project_id: string | null;
  title: string;
  /** `none` until a title is known; `auto` from the first exchange; `user` after a rename. */
  title_source: 'none' | 'auto' | 'user';
  model_id: string | null;
  /** The leaf of the active branch. */
  active_run_id: string | null;
  /** The seq of the newest event; events take the next numbers under this row's lock. */
  last_seq: number;
  /** How far the user has read (a seq); it only moves forward. */
  read_seq: number;
  /** The agent profile its runs use; null: the built-in default (migration 0031). */
  profile_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface RunsTable extends Owned {
  id: string;
  conversation_id: string;
  project_id: string | null;
  /** The run that spawned this one (sub-agent, tool call); null for a top-level turn. */
  parent_run_id: string | null;
  /** The turn before this one on its branch: the edges of the message tree. */
  previous_run_id: string | null;
  /** The user message this turn answers; a regenerated turn shares it with its sibling. */
  user_message_id: string | null;
  kind: RunKind;
  profile_id: string | null;
  model_id: string | null;
  status: RunStatus;
  phase: RunPhase;
  /** JSON of the error that failed the run. */
  error: string | null;
  /** JSON of `RunUsage`. */
  usage: string | null;
  /** The server instance executing the run. */
  instance_id: string | null;
  cancel_requested: number;
  created_at: number;
  started_at: number | null;
  ended_at: number | null;
}

export interface EventsTable {
  conversation_id: string;
  seq: number;
  run_id: string | null;
  ts: number;
  v: number;
  type: string;
  /** JSON. */
  payload: string;
}

/** A summary of each agent session (one per run), derived from the event log for list/find. */
export interface AgentSessionsTable {
  id: string;
  conversation_id: string;
  title: string;
  created_at: number;
  updated_at: number;
  message_count: number;
}

export interface UploadsTable extends Owned {
  id: string;
  project_id: string | null;
  conversation_id: string | null;
  name: string;
  media_type: string;
  size: number;
  sha256: string;
  /** Relative to the object directory. */
  storage_path: string;
  created_at: number;
}

export interface ArtifactsTable extends Owned {
  id: string;
  conversation_id: string;
  project_id: string | null;
  run_id: string | null;
  /** The title. */
  name: string;
  /** markdown | code | html | svg | mermaid | csv | json | text (0020). */
  kind: string;
  language: string | null;
  media_type: string;
  /** Unused since 0020: versions keep their text in artifact_versions. */
  storage_path: string;
  /** The newest version. */
  version: number;
  /** Bytes of the newest version. */
  size: number;
  created_at: number;
  updated_at: number;
}

/** Every version of an artifact, whole (0020). */
export interface ArtifactVersionsTable {
  id: string;
  artifact_id: string;
  version: number;
  /** create | replace | edit. */
  change: string;
  run_id: string | null;
  content: string;
  size: number;
  lines: number;
  sha256: string;
  created_at: number;
}

/** The task of a sub-agent run and its progress (0020); the run row holds its state. */
export interface SubagentTasksTable {
  run_id: string;
  conversation_id: string;
  parent_run_id: string;
  root_run_id: string;
  call_id: string;
  task: string;
  instructions: string | null;
  expected_output: string | null;
  /** JSON array of tool names. */
  tools: string;
  profile_id: string | null;
  depth: number;
  /** JSON SubagentBudget. */
  budget: string;
  current_tool: string | null;
  last_text: string;
  input_tokens: number;
  output_tokens: number;
  tool_calls: number;
  /** The final answer. */
  result: string | null;
  created_at: number;
}

export interface SettingsTable {
  /** `system`, `user`, `project` or `conversation` (spec §4.9). */
  scope: string;
  /** The project or conversation id; empty for system and user. */
  scope_id: string;
  key: string;
  /** JSON. */
  value: string;
  updated_at: number;
}

export interface SecretsTable extends Owned {
  id: string;
  name: string;
  /** `v1:<iv>:<tag>:<data>`, base64url, AES-256-GCM under the server's secret key. */
  ciphertext: string;
  created_at: number;
  updated_at: number;
}

export interface ProviderConfigsTable extends Owned {
  id: string;
  name: string;
  kind: 'openai-compatible' | 'anthropic';
  base_url: string;
  secret_id: string | null;
  /** JSON array of model configurations. */
  models: string;
  /** JSON object of further provider options. */
  options: string;
  enabled: number;
  created_at: number;
  updated_at: number;
}

export interface UsageTable extends Owned {
  id: string;
  run_id: string;
  conversation_id: string;
  project_id: string | null;
  model_id: string | null;
  input_tokens: number;
  output_tokens: number;
  tool_calls: number;
  model_calls: number;
  duration_ms: number;
  /** Input tokens read from the provider's prompt cache (0080); part of `input_tokens`. */
  cache_read_tokens: number;
  /** Input tokens written to the provider's prompt cache (0080); part of `input_tokens`. */
  cache_write_tokens: number;
  /** US dollars from the model's prices when the run ended (0080); null: the model has none. */
  cost: number | null;
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  created_at: number;
}

export interface MemoriesTable extends Owned {
  id: string;
  namespace: string;
  content: string;
  source: string;
  /** JSON array of strings. */
  tags: string;
  created_at: number;
  updated_at: number;
  /** Migration 0060 (spec §4.13). */
  scope: 'user' | 'project';
  project_id: string | null;
  type: string;
  source_run_id: string | null;
  confidence: number;
  last_accessed_at: number | null;
  expires_at: number | null;
}

/** What the model saw in one model call of a run (migration 0060): JSON of ContextAssemblyReport. */
export interface ContextReportsTable {
  run_id: string;
  call_index: number;
  report: string;
  created_at: number;
}

/** A memory the lightweight model proposed after a run (migration 0060). */
export interface MemoryCandidatesTable {
  id: string;
  conversation_id: string;
  run_id: string;
  scope: 'user' | 'project';
  project_id: string | null;
  type: string;
  content: string;
  confidence: number;
  status: 'pending' | 'accepted' | 'rejected';
  memory_id: string | null;
  created_at: number;
  resolved_at: number | null;
}

/** Server processes sharing the database; a run belongs to the instance executing it. */
export interface InstancesTable {
  id: string;
  started_at: number;
  heartbeat_at: number;
  /** PostgreSQL: the advisory lock this instance holds while it lives. */
  lock_key: number;
  pid: number;
  hostname: string;
}

/** Every table, as Kysely sees them. */
/** An MCP server's configuration (migration 0040). */
export interface McpServersTable extends Owned {
  id: string;
  name: string;
  scope: 'user' | 'project';
  project_id: string | null;
  /** 'user', or the project id: names are unique within it. */
  scope_key: string;
  enabled: number;
  /** The transport as JSON (McpTransport), secret headers left out. */
  transport: string;
  /** JSON: header name → secret id. */
  secret_headers: string;
  tool_timeout_ms: number | null;
  idle_timeout_ms: number | null;
  created_at: number;
  updated_at: number;
}

/** A user's agent profile (migration 0031); the built-in default is not stored. */
export interface ProfilesTable extends Owned {
  id: string;
  name: string;
  /** JSON of the ProfileInput. */
  definition: string;
  created_at: number;
  updated_at: number;
}

/** A user macro: `/name` expands to its template (migration 0031). */
export interface MacrosTable extends Owned {
  id: string;
  name: string;
  description: string;
  template: string;
  created_at: number;
  updated_at: number;
}

/** A prompt snippet of the library (migration 0031). */
export interface SnippetsTable extends Owned {
  id: string;
  title: string;
  body: string;
  /** JSON array of strings. */
  tags: string;
  created_at: number;
  updated_at: number;
}

/** An installed extension (spec §4.6); its files are under the data directory. */
export interface ExtensionsTable extends Owned {
  id: string;
  version: string;
  api_version: string;
  /** The manifest as installed (JSON). */
  manifest: string;
  /** The permissions the user accepted (JSON). */
  permissions: string;
  state: 'enabled' | 'disabled';
  installed_at: number;
  updated_at: number;
}

/** A unified-registry source switched on or off (`builtin`, `user`, `profile`). */
export interface RegistrySourcesTable {
  source: string;
  enabled: number;
  updated_at: number;
}

/** A parsed (or failed, or waiting) document (migration 0050); JSON columns hold contract shapes. */
export interface DocumentsTable extends Owned {
  id: string;
  project_id: string | null;
  conversation_id: string | null;
  message_id: string | null;
  upload_id: string | null;
  artifact_id: string | null;
  name: string;
  media_type: string;
  format: string | null;
  size: number;
  status: string;
  failure_reason: string | null;
  /** JSON ParseFailure. */
  failure: string | null;
  /** JSON DocumentMetadata. */
  metadata: string | null;
  /** JSON DocumentProvenance. */
  provenance: string | null;
  parser_id: string | null;
  parser_version: string | null;
  /** The source tag of the parser that read it. */
  source: string | null;
  /** JSON ParsedDocument. */
  ir: string | null;
  block_count: number;
  attempts: number;
  /** 'project' | 'conversation': whether it joins its project's knowledge (decision 0029). */
  knowledge_scope: string;
  /** The instance whose queue holds it while queued or parsing (decision 0030); null otherwise. */
  claimed_by: string | null;
  claimed_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface DocumentParsePoliciesTable {
  project_id: string;
  /** JSON DocumentParsePolicy. */
  policy: string;
  updated_at: number;
}

export interface MessageTextsTable {
  id: Generated<number>;
  conversation_id: string;
  seq: number;
  run_id: string | null;
  role: 'user' | 'assistant';
  text: string;
  ts: number;
}

export interface Schema extends HitlSchema, KnowledgeSchema, IdempotencySchema {
  documents: DocumentsTable;
  document_parse_policies: DocumentParsePoliciesTable;
  projects: ProjectsTable;
  conversations: ConversationsTable;
  runs: RunsTable;
  events: EventsTable;
  agent_sessions: AgentSessionsTable;
  uploads: UploadsTable;
  artifacts: ArtifactsTable;
  artifact_versions: ArtifactVersionsTable;
  subagent_tasks: SubagentTasksTable;
  settings: SettingsTable;
  secrets: SecretsTable;
  provider_configs: ProviderConfigsTable;
  usage: UsageTable;
  memories: MemoriesTable;
  context_reports: ContextReportsTable;
  memory_candidates: MemoryCandidatesTable;
  instances: InstancesTable;
  mcp_servers: McpServersTable;
  profiles: ProfilesTable;
  macros: MacrosTable;
  snippets: SnippetsTable;
  extensions: ExtensionsTable;
  registry_sources: RegistrySourcesTable;
  /** SQLite only: the FTS5 trigram index over conversation titles. */
  conversation_titles: { conversation_id: string; title: string };
  /** The plain text of each user and assistant message, kept by a trigger on `events` (0100). */
  message_texts: MessageTextsTable;
}
