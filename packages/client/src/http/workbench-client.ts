import type {
  DocumentBlocksPage,
  DocumentParsePolicy,
  DocumentStatus,
  DocumentView,
  KnowledgeScope,
  ParserInfo,
  ArchiveImportResult,
  HitlAnswer,
  HitlAnswerResult,
  HitlCardView,
  PlanboardView,
  TodoUpdatePayload,
  ToolAuditRecord,
  ToolInfo,
  ToolSettingsPatch,
  EffectiveSettingsResponse,
  SettingScope,
  SettingsSchemaResponse,
  SettingsWrite,
  SettingsWriteResult,
  AgentTree,
  Artifact,
  ArtifactDiff,
  ArtifactVersion,
  ComponentDocument,
  ComponentKind,
  ComponentList,
  Conversation,
  ConversationPage,
  MessageSearchResult,
  ConversationStart,
  ConversationStartResult,
  ConversationUpdate,
  ConversationView,
  EventPage,
  FileLayer,
  Health,
  ModelList,
  OllamaDetection,
  Project,
  ProjectCreate,
  ProjectUpdate,
  Provider,
  ProviderCreate,
  ProviderTest,
  ProviderUpdate,
  Run,
  SendMessage,
  SendResult,
  Upload,
  Usage,
  UserPreferences,
  WorkbenchEvent,
  RunReplay,
  SetupBundle,
  SetupImportPlan,
  McpPromptResult,
  McpServer,
  McpServerCreate,
  McpServerUpdate,
  ExtensionInstallRequest,
  ExtensionPreview,
  ExtensionUiEntry,
  InstalledExtension,
  RegistryList,
  UiActionRequest,
  UiActionResult,
  UiPanelList,
} from '@youyou/contracts';
import { readConversationEvents, type ConversationEventsOptions } from '../events/index.ts';
import { ApiError, connect, type ConnectionOptions } from '../connection/index.ts';
import { knowledgeClientMethods, type KnowledgeClientMethods } from './knowledge-client.ts';
import { memoryClientMethods, type MemoryClientMethods } from './memory-client.ts';

/** A new component as a form describes it. */
export interface ComponentDraft {
  kind: ComponentKind;
  name: string;
  layer: FileLayer;
  frontMatter?: Readonly<Record<string, unknown>>;
  body?: string;
  files?: { path: string; content: string; executable?: boolean }[];
}

/** How a message is sent. */
export interface SendOptions {
  /** The same key and body sent twice start one run; the server keeps a key for 24 hours. */
  idempotencyKey?: string;
}

const idempotencyHeaders = (options: SendOptions = {}) =>
  options.idempotencyKey === undefined ? {} : { headers: { 'idempotency-key': options.idempotencyKey } };

/** Which page of the conversation list. */
export interface ConversationListOptions {
  projectId?: string;
  /** Full-text search over titles and messages. */
  query?: string;
  cursor?: string;
  limit?: number;
}

/** Everything a client asks of the workbench server, typed by `@youyou/contracts`. */
export interface WorkbenchClient extends MemoryClientMethods, KnowledgeClientMethods {
  health(): Promise<Health>;
  listProjects(): Promise<Project[]>;
  createProject(input: ProjectCreate): Promise<Project>;
  updateProject(id: string, changes: ProjectUpdate): Promise<Project>;
  /** Deletes a project and its conversations. */
  deleteProject(id: string): Promise<void>;
  listConversations(options?: ConversationListOptions): Promise<ConversationPage>;
  /** Searches the text of every message (not only titles), newest first, with marked snippets. */
  searchMessages(query: string, options?: { limit?: number }): Promise<MessageSearchResult>;
  createConversation(input?: {
    projectId?: string | null;
    title?: string;
    modelId?: string | null;
    profileId?: string;
  }): Promise<Conversation>;
  renameConversation(id: string, title: string): Promise<Conversation>;
  /** Moves a conversation to another project (`null`: no project), or changes its model. */
  updateConversation(id: string, changes: ConversationUpdate): Promise<Conversation>;
  deleteConversation(id: string): Promise<void>;
  /** The user has read the conversation up to this seq (it never moves back). */
  markRead(id: string, seq: number): Promise<void>;
  /** The Query; `before` pages to earlier messages of the active branch. */
  getConversation(
    id: string,
    options?: { signal?: AbortSignal; before?: string; limit?: number },
  ): Promise<ConversationView>;
  /**
   * Starts a run. With `idempotencyKey` (one per message, e.g. `crypto.randomUUID()`), sending
   * again after a lost answer returns the first run instead of starting a second.
   */
  sendMessage(conversationId: string, input: SendMessage, options?: SendOptions): Promise<SendResult>;
  /**
   * Creates a conversation and sends its first message in one call: a refused message leaves no
   * empty conversation behind.
   */
  startConversation(input: ConversationStart, options?: SendOptions): Promise<ConversationStartResult>;
  /** Answers the same user message again: a sibling of this assistant message. */
  regenerate(conversationId: string, assistantMessageId: string, modelId?: string): Promise<SendResult>;
  /** Shows another branch: the newest leaf below this message becomes active. */
  selectBranch(conversationId: string, messageId: string): Promise<ConversationView>;
  getRun(runId: string): Promise<Run>;
  cancelRun(runId: string): Promise<void>;
  /** The stored events after a seq, one page (the log, not the live stream). */
  getEventLog(conversationId: string, options?: { after?: number; limit?: number }): Promise<EventPage>;
  /**
   * The conversation's live events after `after`, resuming with `Last-Event-ID` across dropped
   * connections; see `readConversationEvents`.
   */
  events(
    conversationId: string,
    options: Omit<ConversationEventsOptions, 'conversationId' | keyof ConnectionOptions>,
  ): AsyncGenerator<WorkbenchEvent>;
  /**
   * Uploads a file (a browser's `File`, or `new File([bytes], name)` in Node and Deno);
   * `knowledgeScope: 'conversation'` keeps its document out of the project's knowledge.
   */
  upload(
    file: File,
    options?: { conversationId?: string; projectId?: string; knowledgeScope?: KnowledgeScope },
  ): Promise<Upload>;
  uploadUrl(uploadId: string): string;
  /** Artifacts the agent wrote and the uploads, newest first. */
  listArtifacts(conversationId: string): Promise<Artifact[]>;
  getArtifact(id: string): Promise<{ artifact: Artifact; versions: ArtifactVersion[] }>;
  getArtifactVersion(id: string, version: number): Promise<ArtifactVersion>;
  diffArtifact(id: string, from: number, to: number): Promise<ArtifactDiff>;
  deleteArtifact(id: string): Promise<void>;
  /** Where the sandboxed page of an html, svg or docx artifact is (for an iframe). */
  artifactRenderUrl(id: string, version?: number): string;
  artifactDownloadUrl(id: string, version?: number): string;
  /** An uploaded PDF or image inline, for the browser's own viewer. */
  artifactViewUrl(id: string): string;
  /** The sub-agent task tree of a conversation. */
  agentTree(conversationId: string): Promise<AgentTree>;
  /** Stored events of one run (a sub-agent's process, replayed). */
  runEvents(runId: string): Promise<WorkbenchEvent[]>;
  /** A run's events with each model call's assembly report placed among them (any answer's replay). */
  runReplay(runId: string): Promise<RunReplay>;
  /** The user's whole setup in one file, without secrets (spec §4.16). */
  exportSetupBundle(): Promise<SetupBundle>;
  /** What importing a setup bundle would create, overwrite or skip; writes nothing. */
  previewSetupBundle(bundle: SetupBundle): Promise<SetupImportPlan>;
  importSetupBundle(bundle: SetupBundle): Promise<SetupImportPlan>;
  listProviders(): Promise<Provider[]>;
  createProvider(input: ProviderCreate): Promise<Provider>;
  updateProvider(id: string, changes: ProviderUpdate): Promise<Provider>;
  /** Asks the provider's server for its models again (new ones added, the user's edits kept). */
  refreshProvider(id: string): Promise<Provider>;
  deleteProvider(id: string): Promise<void>;
  /** Tests a saved provider (by id) or one not saved yet (its settings); `latency_ms` is measured here. */
  testProvider(target: string | ProviderCreate): Promise<ProviderTest>;
  listModels(): Promise<ModelList>;
  setDefaultModel(modelId: string | null): Promise<void>;
  listComponents(projectId?: string): Promise<ComponentList>;
  readComponent(
    kind: ComponentKind,
    name: string,
    layer: FileLayer,
    projectId?: string,
  ): Promise<ComponentDocument>;
  createComponent(draft: ComponentDraft, projectId?: string): Promise<ComponentDocument>;
  updateComponent(
    kind: ComponentKind,
    name: string,
    layer: FileLayer,
    changes: { frontMatter?: Readonly<Record<string, unknown>>; body?: string },
    projectId?: string,
  ): Promise<ComponentDocument>;
  deleteComponent(kind: ComponentKind, name: string, layer: FileLayer, projectId?: string): Promise<void>;
  setPluginEnabled(
    name: string,
    enabled: boolean | null,
    scope: FileLayer,
    projectId?: string,
  ): Promise<void>;
  /** Every declared setting (spec §4.9): type, default, effect timing, labels. */
  getSettingsSchema(): Promise<SettingsSchemaResponse>;
  /** The value each setting has for a project or conversation, and the layer it comes from. */
  getEffectiveSettings(scope?: {
    projectId?: string;
    conversationId?: string;
  }): Promise<EffectiveSettingsResponse>;
  /** Writes values at one layer; one bad value writes nothing. */
  writeSettings(write: SettingsWrite): Promise<SettingsWriteResult>;
  /** Removes a key's value at one layer, so the layer below shows through. */
  resetSetting(key: string, scope: SettingScope): Promise<SettingsWriteResult>;
  /**
   * Where an archive downloads (spec §4.16): a conversation, a project, or everything (a zip with a
   * checksummed manifest; the URL carries no token, so a browser needs its session cookie).
   */
  archiveUrl(of: { conversationId: string } | { projectId: string } | 'everything'): string;
  /** Imports an archive with new ids, into `projectId` when given; a bad archive imports nothing. */
  importArchive(archive: Blob | Uint8Array, options?: { projectId?: string }): Promise<ArchiveImportResult>;
  /** Token, time and tool-call totals grouped by day, model, project or conversation (spec §4.17). */
  usage(groupBy: Usage['group_by']): Promise<Usage>;
  /** One conversation's usage, by model (default) or day. */
  conversationUsage(conversationId: string, groupBy?: 'model' | 'day'): Promise<Usage>;
  /** The UI preferences kept on the server (spec §4.15). */
  getPreferences(): Promise<UserPreferences>;
  putPreferences(preferences: UserPreferences): Promise<void>;
  /** Asks the server whether an Ollama runs on its machine (a page's CSP keeps a browser from asking). */
  detectOllama(): Promise<OllamaDetection>;
  /** Answers a HITL card (spec §4.5); the same client key on a retry returns the first outcome. */
  answerCard(
    conversationId: string,
    cardId: string,
    answer: HitlAnswer,
    clientKey: string,
  ): Promise<HitlAnswerResult>;
  /** The right-column panels of every enabled extension (spec §4.6). */
  listPanels(): Promise<UiPanelList>;
  /** Runs the tool or command a panel's or a card's button or form names (same policy as in a run). */
  runUiAction(request: UiActionRequest): Promise<UiActionResult>;
  /** A conversation's HITL cards, oldest first (`pending`: the ones waiting for the user). */
  listCards(conversationId: string, status?: HitlCardView['status']): Promise<HitlCardView[]>;
  /** The conversation's plan and todos, each with its version. */
  getPlanboard(conversationId: string): Promise<PlanboardView>;
  addTodo(conversationId: string, text: string): Promise<TodoUpdatePayload>;
  updateTodo(
    conversationId: string,
    todoId: string,
    patch: { done?: boolean; text?: string },
  ): Promise<TodoUpdatePayload>;
  removeTodo(conversationId: string, todoId: string): Promise<TodoUpdatePayload>;
  /** Parsed documents (spec §4.11): a conversation's, newest first; kept live by `document.status` events. */
  listConversationDocuments(conversationId: string, status?: DocumentStatus): Promise<DocumentView[]>;
  listProjectDocuments(projectId: string, status?: DocumentStatus): Promise<DocumentView[]>;
  getDocument(documentId: string): Promise<DocumentView>;
  /** The document parsed from an upload; `ApiError` NOT_FOUND for images and unparsed formats. */
  getUploadDocument(uploadId: string): Promise<DocumentView>;
  /** Blocks `from` (inclusive) to `to` (exclusive), or one page. */
  getDocumentBlocks(
    documentId: string,
    range?: { from?: number; to?: number; page?: number },
  ): Promise<DocumentBlocksPage>;
  /** Keeps a document to its conversation, or puts it (back) in its project's knowledge. */
  setDocumentKnowledgeScope(documentId: string, scope: KnowledgeScope): Promise<DocumentView>;
  /** Parses a failed document again. */
  retryDocument(documentId: string): Promise<DocumentView>;
  getParsePolicy(projectId: string): Promise<DocumentParsePolicy>;
  setParsePolicy(projectId: string, policy: DocumentParsePolicy): Promise<DocumentParsePolicy>;
  /** Registered parsers with their source tags (the external service's availability for a project). */
  listParsers(projectId?: string): Promise<ParserInfo[]>;
  /** The audit of tool calls in a conversation, newest first (one call with `callId`). */
  toolCalls(conversationId: string, options?: { callId?: string }): Promise<ToolAuditRecord[]>;
  /**
   * The audit of tool calls in every conversation, newest first: one tool's with `toolName`, older
   * pages with `before` (ms since the epoch, the oldest `started_at` of the page seen).
   */
  allToolCalls(options?: { toolName?: string; limit?: number; before?: number }): Promise<ToolAuditRecord[]>;
  /** Every tool with its enablement and confirmation policy. */
  listTools(): Promise<ToolInfo[]>;
  updateTool(name: string, patch: ToolSettingsPatch): Promise<ToolInfo>;
  /** The user's IANA time zone (`current_time` answers in it). */
  setTimeZone(timeZone: string): Promise<void>;
  /** MCP servers with their live status (spec §4.8). */
  listMcpServers(): Promise<McpServer[]>;
  createMcpServer(input: McpServerCreate): Promise<McpServer>;
  updateMcpServer(id: string, changes: McpServerUpdate): Promise<McpServer>;
  deleteMcpServer(id: string): Promise<void>;
  /** Starts (or restarts) the server now and returns its status. */
  connectMcpServer(id: string): Promise<McpServer>;
  /** Fills an MCP server's prompt (the `/<server>__<prompt>` command) with its arguments. */
  getMcpPrompt(
    serverId: string,
    name: string,
    args: Readonly<Record<string, string>>,
  ): Promise<McpPromptResult>;
  /** Installed extensions (spec §4.6). */
  listExtensions(): Promise<InstalledExtension[]>;
  /** Stages a folder or archive on the server's machine and lists its permissions and problems. */
  previewExtension(path: string): Promise<ExtensionPreview>;
  /** Stages an uploaded `.zip` or `.tgz` and previews it. */
  uploadExtension(file: File): Promise<ExtensionPreview>;
  installExtension(request: ExtensionInstallRequest): Promise<InstalledExtension>;
  setExtensionEnabled(id: string, enabled: boolean): Promise<InstalledExtension>;
  uninstallExtension(id: string): Promise<void>;
  reloadExtension(id: string): Promise<InstalledExtension>;
  /** Panels, cards and forms of the enabled extensions. */
  extensionUi(): Promise<ExtensionUiEntry[]>;
  /** The unified registry: what is active and who provides it. */
  registry(): Promise<RegistryList>;
  /** One switch for everything a source provides. */
  setRegistrySource(source: string, enabled: boolean): Promise<RegistryList>;
}

const segment = encodeURIComponent;

/**
 * The typed client of the workbench API over `fetch`: request and response shapes are the
 * contract's (the same zod schemas the server's routes validate with), failures are `ApiError`
 * with the server's machine code. No Node built-ins: it runs in browsers, Node and Deno.
 *
 * @example
 * const client = createWorkbenchClient({ baseUrl: 'http://127.0.0.1:4280', token });
 * const conversation = await client.createConversation({ title: 'Notes' });
 * const { run } = await client.sendMessage(conversation.id, { text: 'Hello' });
 * for await (const event of client.events(conversation.id, { after: 0 })) {
 *   if (event.type === 'message.delta') process.stdout.write(event.payload.text);
 *   if (event.type === 'run.completed' && event.run_id === run.id) break;
 * }
 */
export function createWorkbenchClient(options: ConnectionOptions = {}): WorkbenchClient {
  const connection = connect(options);
  const json = connection.json.bind(connection);
  const projectQuery = (projectId: string | undefined) =>
    projectId === undefined ? {} : { project_id: projectId };

  return {
    ...memoryClientMethods(connection),
    ...knowledgeClientMethods(connection),
    health: () => json('GET', '/api/health'),
    listProjects: async () => (await json<{ projects: Project[] }>('GET', '/api/projects')).projects,
    createProject: (input) => json('POST', '/api/projects', { body: input }),
    updateProject: (id, changes) => json('PATCH', `/api/projects/${segment(id)}`, { body: changes }),
    deleteProject: async (id) => {
      await json('DELETE', `/api/projects/${segment(id)}`, { query: { force: 'true' } });
    },
    listConversations: (list = {}) =>
      json('GET', '/api/conversations', {
        query: { ...projectQuery(list.projectId), q: list.query, cursor: list.cursor, limit: list.limit },
      }),
    searchMessages: (query, options = {}) =>
      json('GET', '/api/messages/search', { query: { query, limit: options.limit } }),
    createConversation: (input = {}) =>
      json('POST', '/api/conversations', {
        body: {
          ...(input.projectId === undefined ? {} : { project_id: input.projectId }),
          ...(input.title === undefined ? {} : { title: input.title }),
          ...(input.modelId === undefined ? {} : { model_id: input.modelId }),
          ...(input.profileId === undefined ? {} : { profile_id: input.profileId }),
        },
      }),
    renameConversation: (id, title) =>
      json('PATCH', `/api/conversations/${segment(id)}`, { body: { title } }),
    updateConversation: (id, changes) =>
      json('PATCH', `/api/conversations/${segment(id)}`, { body: changes }),
    deleteConversation: async (id) => {
      await json('DELETE', `/api/conversations/${segment(id)}`);
    },
    markRead: async (id, seq) => {
      await json('PUT', `/api/conversations/${segment(id)}/read`, { body: { seq } });
    },
    getConversation: (id, get = {}) =>
      json('GET', `/api/conversations/${segment(id)}`, {
        query: { before: get.before, limit: get.limit },
        ...(get.signal === undefined ? {} : { signal: get.signal }),
      }),
    sendMessage: (conversationId, input, send) =>
      json('POST', `/api/conversations/${segment(conversationId)}/messages`, {
        body: input,
        ...idempotencyHeaders(send),
      }),
    startConversation: (input, send) =>
      json('POST', '/api/conversations/start', { body: input, ...idempotencyHeaders(send) }),
    regenerate: (conversationId, assistantMessageId, modelId) =>
      json(
        'POST',
        `/api/conversations/${segment(conversationId)}/messages/${segment(assistantMessageId)}/regenerate`,
        { body: modelId === undefined ? {} : { model_id: modelId } },
      ),
    selectBranch: (conversationId, messageId) =>
      json('POST', `/api/conversations/${segment(conversationId)}/branch`, {
        body: { message_id: messageId },
      }),
    getRun: (runId) => json('GET', `/api/runs/${segment(runId)}`),
    cancelRun: async (runId) => {
      await json('POST', `/api/runs/${segment(runId)}/cancel`);
    },
    getEventLog: (conversationId, log = {}) =>
      json('GET', `/api/conversations/${segment(conversationId)}/event-log`, {
        query: { after: log.after, limit: log.limit },
      }),
    events: (conversationId, stream) => readConversationEvents({ ...options, ...stream, conversationId }),
    upload: async (file, upload = {}) => {
      const form = new FormData();
      form.set('file', file, file.name);
      if (upload.conversationId !== undefined) form.set('conversation_id', upload.conversationId);
      if (upload.projectId !== undefined) form.set('project_id', upload.projectId);
      if (upload.knowledgeScope !== undefined) form.set('knowledge_scope', upload.knowledgeScope);
      const response = await connection.fetch(connection.url('/api/uploads'), { method: 'POST', body: form });
      if (!response.ok) throw await ApiError.fromResponse(response);
      return (await response.json()) as Upload;
    },
    uploadUrl: (uploadId) => connection.url(`/api/uploads/${segment(uploadId)}/content`),
    listArtifacts: async (conversationId) =>
      (
        await json<{ artifacts: Artifact[] }>(
          'GET',
          `/api/conversations/${segment(conversationId)}/artifacts`,
        )
      ).artifacts,
    getArtifact: (id) => json('GET', `/api/artifacts/${segment(id)}`),
    getArtifactVersion: (id, version) =>
      json('GET', `/api/artifacts/${segment(id)}/versions/${String(version)}`),
    diffArtifact: (id, from, to) =>
      json('GET', `/api/artifacts/${segment(id)}/diff`, { query: { from, to } }),
    deleteArtifact: async (id) => {
      await json('DELETE', `/api/artifacts/${segment(id)}`);
    },
    artifactRenderUrl: (id, version) => connection.url(`/api/artifacts/${segment(id)}/render`, { version }),
    artifactDownloadUrl: (id, version) =>
      connection.url(`/api/artifacts/${segment(id)}/download`, { version }),
    artifactViewUrl: (id) => connection.url(`/api/artifacts/${segment(id)}/view`),
    agentTree: (conversationId) => json('GET', `/api/conversations/${segment(conversationId)}/agents`),
    runEvents: async (runId) =>
      (await json<{ events: WorkbenchEvent[] }>('GET', `/api/runs/${segment(runId)}/events`)).events,
    runReplay: (runId) => json('GET', `/api/runs/${segment(runId)}/replay`),
    exportSetupBundle: () => json('GET', '/api/setup-bundle'),
    previewSetupBundle: (bundle) => json('POST', '/api/setup-bundle/preview', { body: bundle }),
    importSetupBundle: (bundle) => json('POST', '/api/setup-bundle/import', { body: bundle }),
    listProviders: async () => (await json<{ providers: Provider[] }>('GET', '/api/providers')).providers,
    createProvider: (input) => json('POST', '/api/providers', { body: input }),
    updateProvider: (id, changes) => json('PATCH', `/api/providers/${segment(id)}`, { body: changes }),
    refreshProvider: (id) => json('POST', `/api/providers/${segment(id)}/refresh`),
    deleteProvider: async (id) => {
      await json('DELETE', `/api/providers/${segment(id)}`);
    },
    testProvider: async (target) => {
      const started = performance.now();
      const result =
        typeof target === 'string'
          ? await json<ProviderTest>('POST', `/api/providers/${segment(target)}/test`)
          : await json<ProviderTest>('POST', '/api/providers/test', {
              body: {
                kind: target.kind,
                base_url: target.base_url,
                name: target.name,
                ...(target.api_key === undefined ? {} : { api_key: target.api_key }),
              },
            });
      return { ...result, latency_ms: Math.round(performance.now() - started) };
    },
    listModels: () => json('GET', '/api/models'),
    setDefaultModel: async (modelId) => {
      await json('PUT', '/api/models/default', { body: { model_id: modelId } });
    },
    listComponents: (projectId) => json('GET', '/api/components', { query: projectQuery(projectId) }),
    readComponent: (kind, name, layer, projectId) =>
      json('GET', `/api/components/${segment(kind)}/${segment(name)}`, {
        query: { layer, ...projectQuery(projectId) },
      }),
    createComponent: (draft, projectId) =>
      json('POST', '/api/components', {
        body: {
          kind: draft.kind,
          name: draft.name,
          layer: draft.layer,
          ...projectQuery(projectId),
          ...(draft.frontMatter === undefined ? {} : { front_matter: { ...draft.frontMatter } }),
          ...(draft.body === undefined ? {} : { body: draft.body }),
          ...(draft.files === undefined ? {} : { files: draft.files }),
        },
      }),
    updateComponent: (kind, name, layer, changes, projectId) =>
      json('PATCH', `/api/components/${segment(kind)}/${segment(name)}`, {
        body: {
          layer,
          ...projectQuery(projectId),
          ...(changes.frontMatter === undefined ? {} : { front_matter: { ...changes.frontMatter } }),
          ...(changes.body === undefined ? {} : { body: changes.body }),
        },
      }),
    deleteComponent: async (kind, name, layer, projectId) => {
      await json('DELETE', `/api/components/${segment(kind)}/${segment(name)}`, {
        query: { layer, ...projectQuery(projectId) },
      });
    },
    setPluginEnabled: async (name, enabled, scope, projectId) => {
      await json('POST', `/api/components/plugin/${segment(name)}/toggle`, {
        body: { enabled, scope, ...projectQuery(projectId) },
      });
    },
    getSettingsSchema: () => json('GET', '/api/settings/schema'),
    getEffectiveSettings: (scope = {}) =>
      json('GET', '/api/settings/effective', {
        query: { project_id: scope.projectId, conversation_id: scope.conversationId },
      }),
    writeSettings: (write) => json('PUT', '/api/settings/values', { body: write }),
    resetSetting: (key, scope) =>
      json('DELETE', `/api/settings/values/${segment(key)}`, {
        query: { layer: scope.layer, scope_id: scope.scope_id },
      }),
    archiveUrl: (of) =>
      connection.url(
        of === 'everything'
          ? '/api/archive'
          : 'conversationId' in of
            ? `/api/conversations/${segment(of.conversationId)}/archive`
            : `/api/projects/${segment(of.projectId)}/archive`,
      ),
    importArchive: async (archive, target = {}) => {
      const query = target.projectId === undefined ? '' : `?project_id=${segment(target.projectId)}`;
      const response = await connection.fetch(connection.url(`/api/archive/import${query}`), {
        method: 'POST',
        headers: { 'content-type': 'application/zip' },
        body: archive instanceof Uint8Array ? new Blob([archive as Uint8Array<ArrayBuffer>]) : archive,
      });
      if (!response.ok) throw await ApiError.fromResponse(response);
      return (await response.json()) as ArchiveImportResult;
    },
    usage: (groupBy) => json('GET', '/api/usage', { query: { group_by: groupBy } }),
    conversationUsage: (conversationId, groupBy = 'model') =>
      json('GET', `/api/conversations/${segment(conversationId)}/usage`, { query: { group_by: groupBy } }),
    getPreferences: async () =>
      (await json<{ preferences: UserPreferences }>('GET', '/api/preferences')).preferences,
    putPreferences: async (preferences) => {
      await json('PUT', '/api/preferences', { body: { preferences: { ...preferences } } });
    },
    detectOllama: () => json('GET', '/api/providers/detect/ollama'),
    answerCard: (conversationId, cardId, answer, clientKey) =>
      json('POST', `/api/conversations/${segment(conversationId)}/cards/${segment(cardId)}/answer`, {
        body: { answer, client_key: clientKey },
      }),
    listPanels: () => json('GET', '/api/extensions/panels'),
    runUiAction: (request) => json('POST', '/api/extensions/actions', { body: request }),
    listCards: async (conversationId, status) =>
      (
        await json<{ cards: HitlCardView[] }>('GET', `/api/conversations/${segment(conversationId)}/cards`, {
          query: { status },
        })
      ).cards,
    getPlanboard: (conversationId) => json('GET', `/api/conversations/${segment(conversationId)}/planboard`),
    addTodo: (conversationId, text) =>
      json('POST', `/api/conversations/${segment(conversationId)}/todos`, { body: { text } }),
    updateTodo: (conversationId, todoId, patch) =>
      json('PATCH', `/api/conversations/${segment(conversationId)}/todos/${segment(todoId)}`, {
        body: patch,
      }),
    removeTodo: (conversationId, todoId) =>
      json('DELETE', `/api/conversations/${segment(conversationId)}/todos/${segment(todoId)}`),
    listConversationDocuments: async (conversationId, status) =>
      (
        await json<{ documents: DocumentView[] }>(
          'GET',
          `/api/conversations/${segment(conversationId)}/documents`,
          { query: status === undefined ? {} : { status } },
        )
      ).documents,
    listProjectDocuments: async (projectId, status) =>
      (
        await json<{ documents: DocumentView[] }>('GET', `/api/projects/${segment(projectId)}/documents`, {
          query: status === undefined ? {} : { status },
        })
      ).documents,
    getDocument: (documentId) => json('GET', `/api/documents/${segment(documentId)}`),
    getUploadDocument: (uploadId) => json('GET', `/api/uploads/${segment(uploadId)}/document`),
    getDocumentBlocks: (documentId, range = {}) =>
      json('GET', `/api/documents/${segment(documentId)}/blocks`, { query: range }),
    setDocumentKnowledgeScope: (documentId, scope) =>
      json('PATCH', `/api/documents/${segment(documentId)}`, { body: { knowledge_scope: scope } }),
    retryDocument: (documentId) => json('POST', `/api/documents/${segment(documentId)}/retry`),
    getParsePolicy: (projectId) => json('GET', `/api/projects/${segment(projectId)}/parse-policy`),
    setParsePolicy: (projectId, policy) =>
      json('PUT', `/api/projects/${segment(projectId)}/parse-policy`, { body: policy }),
    listParsers: async (projectId) =>
      (await json<{ parsers: ParserInfo[] }>('GET', '/api/parsers', { query: projectQuery(projectId) }))
        .parsers,
    toolCalls: async (conversationId, calls = {}) =>
      (
        await json<{ calls: ToolAuditRecord[] }>(
          'GET',
          `/api/conversations/${segment(conversationId)}/tool-calls`,
          {
            query: { call_id: calls.callId },
          },
        )
      ).calls,
    allToolCalls: async (calls = {}) =>
      (
        await json<{ calls: ToolAuditRecord[] }>('GET', '/api/tool-calls', {
          query: { tool_name: calls.toolName, limit: calls.limit, before: calls.before },
        })
      ).calls,
    listTools: async () => (await json<{ tools: ToolInfo[] }>('GET', '/api/tools')).tools,
    updateTool: (name, patch) => json('PUT', `/api/tools/${segment(name)}`, { body: patch }),
    setTimeZone: async (timeZone) => {
      await json('PUT', '/api/time-zone', { body: { time_zone: timeZone } });
    },
    listMcpServers: async () => (await json<{ servers: McpServer[] }>('GET', '/api/mcp/servers')).servers,
    createMcpServer: (input) => json('POST', '/api/mcp/servers', { body: input }),
    updateMcpServer: (id, changes) => json('PATCH', `/api/mcp/servers/${segment(id)}`, { body: changes }),
    deleteMcpServer: async (id) => {
      await json('DELETE', `/api/mcp/servers/${segment(id)}`);
    },
    connectMcpServer: (id) => json('POST', `/api/mcp/servers/${segment(id)}/connect`),
    getMcpPrompt: (serverId, name, args) =>
      json('POST', `/api/mcp/servers/${segment(serverId)}/prompts/${segment(name)}`, {
        body: { arguments: args },
      }),
    listExtensions: async () =>
      (await json<{ extensions: InstalledExtension[] }>('GET', '/api/extensions')).extensions,
    previewExtension: (path) => json('POST', '/api/extensions/preview', { body: { path } }),
    uploadExtension: async (file) => {
      const form = new FormData();
      form.set('file', file, file.name);
      const response = await connection.fetch(connection.url('/api/extensions/upload'), {
        method: 'POST',
        body: form,
      });
      if (!response.ok) throw await ApiError.fromResponse(response);
      return (await response.json()) as ExtensionPreview;
    },
    installExtension: (request) => json('POST', '/api/extensions', { body: request }),
    setExtensionEnabled: (id, enabled) =>
      json('PATCH', `/api/extensions/${segment(id)}`, { body: { enabled } }),
    uninstallExtension: async (id) => {
      await json('DELETE', `/api/extensions/${segment(id)}`);
    },
    reloadExtension: (id) => json('POST', `/api/extensions/${segment(id)}/reload`),
    extensionUi: async () =>
      (await json<{ entries: ExtensionUiEntry[] }>('GET', '/api/extensions/ui')).entries,
    registry: () => json('GET', '/api/registry'),
    setRegistrySource: (source, enabled) =>
      json('PUT', `/api/registry/sources/${segment(source)}`, { body: { enabled } }),
  };
}
