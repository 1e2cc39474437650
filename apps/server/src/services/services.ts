import type { HttpBindings } from '@hono/node-server';
import type { AgentPool } from '../agents/index.ts';
import type { ArtifactService } from '../artifacts/index.ts';
import type { ContextService } from '../context/index.ts';
import type { MemoryService } from '../memory/index.ts';
import type { WorkbenchDatabase } from '../database/index.ts';
import type { DocumentService } from '../documents/index.ts';
import type { EventHub, EventLog } from '../events/index.ts';
import type { ExtensionHost } from '../extensions/index.ts';
import type { HitlService } from '../hitl/index.ts';
import type { KnowledgeService } from '../knowledge/index.ts';
import type { ServerLogger } from '../logging/index.ts';
import type { McpManager, McpServerRepository } from '../mcp/index.ts';
import type { PlanboardRepository } from '../planboard/index.ts';
import type { ProviderRegistry } from '../providers/index.ts';
import type { RunManager } from '../runs/index.ts';
import type { CommandRegistry, LibraryService } from '../library/index.ts';
import type { ModelRouting } from '../models/index.ts';
import type { ProfileService } from '../profiles/index.ts';
import type { SubagentManager } from '../subagents/index.ts';
import type { SettingsService } from '../settings/index.ts';
import type {
  ConversationRepository,
  ObjectStore,
  ProjectRepository,
  RunRepository,
  SettingsRepository,
  UploadRepository,
  UsageRepository,
} from '../storage/index.ts';
import type { ToolAuditRepository, ToolCatalog, ToolGrantRepository } from '../tools/index.ts';
import type { WorkbenchStream } from '../workbench-stream/index.ts';
import type { UiActionRunner, UiSurfaceRegistry } from '../ui-surfaces/index.ts';

/** Settings of the HTTP edge. */
export interface HttpConfig {
  token: string;
  dataDirectory: string;
  home: string;
  /** Project directories must lie inside one of these (after symlinks). */
  workspaceRoots: readonly string[];
  /** DNS names besides localhost and IP literals that may appear in the Host header. */
  allowedHosts: readonly string[];
  maxJsonBytes: number;
  maxUploadBytes: number;
  /** SSE comment interval. */
  heartbeatMs: number;
  /** A client that has not read for this long while events wait is dropped (it can resume). */
  stallTimeoutMs: number;
  /** The built web UI, when there is one. */
  webRoot: string | undefined;
  /** True when served over HTTPS (cookies get `Secure`). */
  secure: boolean;
}

/** Everything the routes use. */
export interface ServerServices {
  database: WorkbenchDatabase;
  eventLog: EventLog;
  hub: EventHub;
  runs: RunManager;
  runRepository: RunRepository;
  providers: ProviderRegistry;
  pool: AgentPool;
  mcp: McpManager<McpServerRepository>;
  /** Installed extensions and the unified registry (spec §4.6, §4.1 rule 4). */
  extensions: ExtensionHost;
  objects: ObjectStore;
  settings: SettingsRepository;
  /** The layered, schema-checked settings (spec §4.9); extensions register into `settingsService.registry`. */
  settingsService: SettingsService;
  /** Workbench-wide events (`GET /api/events`). */
  workbenchStream: WorkbenchStream;
  /** Agent profiles (spec §4.7); `toolPolicyOf` (runs) reads a conversation's tool lists. */
  profiles: ProfileService;
  /** Macros and the snippet library (spec §4.14). */
  library: LibraryService;
  /** `/` commands; extensions `register` theirs. */
  commands: CommandRegistry;
  /** Model routing by kind: `resolve('lightweight', …)`, `complete(…)` (spec §4.7). */
  routing: ModelRouting;
  projects: ProjectRepository;
  conversations: ConversationRepository;
  uploads: UploadRepository;
  /** Parsed documents (spec §4.11): uploads parsed in the background; retrieval subscribes `onParsed`. */
  documents: DocumentService;
  artifacts: ArtifactService;
  /** A project's knowledge and the Retriever (spec §4.12); absent in servers built without it. */
  knowledge?: KnowledgeService;
  subagents: SubagentManager;
  usage: UsageRepository;
  hitl: HitlService;
  /** Extension panels and the tools and commands their actions may call, by source (spec §4.6). */
  uiSurfaces: UiSurfaceRegistry;
  uiActions: UiActionRunner;
  catalog: ToolCatalog;
  audit: ToolAuditRepository;
  grants: ToolGrantRepository;
  planboards: PlanboardRepository;
  /** Memory (spec §4.13): the memory page, `/remember`, candidates. */
  memory: MemoryService;
  /** Context assembly (spec §4.10): the reports of what the model saw. */
  contextAssembly: ContextService;
  logger: ServerLogger;
  /** `text` with every secret the server knows and every key-shaped string redacted. */
  redact(text: string): string;
  instanceId: string;
  version: string;
  startedAt: number;
  config: HttpConfig;
}

/** Hono's per-request variables, and the Node request and response (absent under `app.request()`). */
export interface HttpEnv {
  Variables: { requestId: string };
  Bindings: Partial<HttpBindings>;
}
