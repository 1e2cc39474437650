import type {
  KnowledgeScope,
  ArchiveImportPreview,
  ArchiveImportResult,
  HitlAnswer,
  HitlAnswerResult,
  HitlCardView,
  PlanboardView,
  TodoUpdatePayload,
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
} from '@youyou/contracts';
import { readConversationEvents, type ConversationEventsOptions } from '../events/index.ts';
import { ApiError, connect, type ConnectionOptions } from '../connection/index.ts';
import { knowledgeClientMethods, type KnowledgeClientMethods } from './knowledge-client.ts';
import { memoryClientMethods, type MemoryClientMethods } from './memory-client.ts';
import { customiseClientMethods, type CustomiseClientMethods } from './customise-client.ts';
import { extensionClientMethods, type ExtensionClientMethods } from './extension-client.ts';
import { documentClientMethods, type DocumentClientMethods } from './document-client.ts';
import { toolClientMethods, type ToolClientMethods } from './tool-client.ts';

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
export interface WorkbenchClient
  extends
    MemoryClientMethods,
    KnowledgeClientMethods,
    CustomiseClientMethods,
    ExtensionClientMethods,
    DocumentClientMethods,
    ToolClientMethods {
  health(): Promise<Health>;
  listProjects(): Promise<Project[]>;
  getProject(id: string): Promise<Project>;
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
  getUpload(uploadId: string): Promise<Upload>;
  /** Deletes an upload and the document parsed from it. */
  deleteUpload(uploadId: string): Promise<void>;
  uploadUrl(uploadId: string): string;
  /** Artifacts the agent wrote and the uploads, newest first. */
  listArtifacts(conversationId: string): Promise<Artifact[]>;
  /** The artifacts of every conversation in a project, newest first. */
  listProjectArtifacts(projectId: string): Promise<Artifact[]>;
  /** The artifact a link in a message names (its id, name or path), as the conversation sees it. */
  resolveArtifact(conversationId: string, reference: string): Promise<Artifact>;
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
  getProvider(id: string): Promise<Provider>;
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
  /**
   * Where an archive downloads (spec §4.16): a conversation, a project, or everything (a zip with a
   * checksummed manifest; the URL carries no token, so a browser needs its session cookie).
   */
  archiveUrl(of: { conversationId: string } | { projectId: string } | 'everything'): string;
  /** Imports an archive with new ids, into `projectId` when given; a bad archive imports nothing. */
  importArchive(
    archive: Blob | Uint8Array,
    options?: { projectId?: string; onNameConflict?: 'copy' | 'refuse' },
  ): Promise<ArchiveImportResult>;
  /** What importing the archive would create, and which project names it would copy; writes nothing. */
  previewArchiveImport(
    archive: Blob | Uint8Array,
    options?: { projectId?: string },
  ): Promise<ArchiveImportPreview>;
  /** Token, time and tool-call totals grouped by day, model, project or conversation (spec §4.17). */
  usage(groupBy: Usage['group_by']): Promise<Usage>;
  /** One conversation's usage, by model (default) or day. */
  conversationUsage(conversationId: string, groupBy?: 'model' | 'day'): Promise<Usage>;
  /** The UI preferences kept on the server (spec §4.15). */
  getPreferences(): Promise<UserPreferences>;
  putPreferences(preferences: UserPreferences): Promise<void>;
  /**
   * Where the workbench-wide event stream is (`settings.changed`, `extensions.changed`, …), for an
   * `EventSource` with the session cookie.
   */
  workbenchEventsUrl(): string;
  /** Asks the server whether an Ollama runs on its machine (a page's CSP keeps a browser from asking). */
  detectOllama(): Promise<OllamaDetection>;
  /** Answers a HITL card (spec §4.5); the same client key on a retry returns the first outcome. */
  answerCard(
    conversationId: string,
    cardId: string,
    answer: HitlAnswer,
    clientKey: string,
  ): Promise<HitlAnswerResult>;
  /** A conversation's HITL cards, oldest first (`pending`: the ones waiting for the user). */
  listCards(conversationId: string, status?: HitlCardView['status']): Promise<HitlCardView[]>;
  getCard(conversationId: string, cardId: string): Promise<HitlCardView>;
  /** The conversation's plan and todos, each with its version. */
  getPlanboard(conversationId: string): Promise<PlanboardView>;
  addTodo(conversationId: string, text: string): Promise<TodoUpdatePayload>;
  updateTodo(
    conversationId: string,
    todoId: string,
    patch: { done?: boolean; text?: string },
  ): Promise<TodoUpdatePayload>;
  removeTodo(conversationId: string, todoId: string): Promise<TodoUpdatePayload>;
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
  /** POSTs an archive's zip as the body (import and its preview). */
  const postArchive = async <T>(
    path: string,
    archive: Blob | Uint8Array,
    query: Record<string, string | undefined>,
  ): Promise<T> => {
    const response = await connection.fetch(connection.url(path, query), {
      method: 'POST',
      headers: { 'content-type': 'application/zip' },
      body: archive instanceof Uint8Array ? new Blob([archive as Uint8Array<ArrayBuffer>]) : archive,
    });
    if (!response.ok) throw await ApiError.fromResponse(response);
    return (await response.json()) as T;
  };
  const projectQuery = (projectId: string | undefined) =>
    projectId === undefined ? {} : { project_id: projectId };

  return {
    ...memoryClientMethods(connection),
    ...knowledgeClientMethods(connection),
    ...customiseClientMethods(connection),
    ...extensionClientMethods(connection),
    ...documentClientMethods(connection),
    ...toolClientMethods(connection),
    health: () => json('GET', '/api/health'),
    listProjects: async () => (await json<{ projects: Project[] }>('GET', '/api/projects')).projects,
    getProject: (id) => json('GET', `/api/projects/${segment(id)}`),
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
    getUpload: (uploadId) => json('GET', `/api/uploads/${segment(uploadId)}`),
    deleteUpload: async (uploadId) => {
      await json('DELETE', `/api/uploads/${segment(uploadId)}`);
    },
    uploadUrl: (uploadId) => connection.url(`/api/uploads/${segment(uploadId)}/content`),
    listArtifacts: async (conversationId) =>
      (
        await json<{ artifacts: Artifact[] }>(
          'GET',
          `/api/conversations/${segment(conversationId)}/artifacts`,
        )
      ).artifacts,
    listProjectArtifacts: async (projectId) =>
      (await json<{ artifacts: Artifact[] }>('GET', `/api/projects/${segment(projectId)}/artifacts`))
        .artifacts,
    resolveArtifact: (conversationId, reference) =>
      json('GET', `/api/conversations/${segment(conversationId)}/artifacts/resolve`, {
        query: { reference },
      }),
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
    getProvider: (id) => json('GET', `/api/providers/${segment(id)}`),
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
    archiveUrl: (of) =>
      connection.url(
        of === 'everything'
          ? '/api/archive'
          : 'conversationId' in of
            ? `/api/conversations/${segment(of.conversationId)}/archive`
            : `/api/projects/${segment(of.projectId)}/archive`,
      ),
    importArchive: (archive, target = {}) =>
      postArchive<ArchiveImportResult>('/api/archive/import', archive, {
        project_id: target.projectId,
        on_name_conflict: target.onNameConflict,
      }),
    previewArchiveImport: (archive, target = {}) =>
      postArchive<ArchiveImportPreview>('/api/archive/import/preview', archive, {
        project_id: target.projectId,
      }),
    usage: (groupBy) => json('GET', '/api/usage', { query: { group_by: groupBy } }),
    conversationUsage: (conversationId, groupBy = 'model') =>
      json('GET', `/api/conversations/${segment(conversationId)}/usage`, { query: { group_by: groupBy } }),
    getPreferences: async () =>
      (await json<{ preferences: UserPreferences }>('GET', '/api/preferences')).preferences,
    putPreferences: async (preferences) => {
      await json('PUT', '/api/preferences', { body: { preferences: { ...preferences } } });
    },
    workbenchEventsUrl: () => connection.url('/api/events'),
    detectOllama: () => json('GET', '/api/providers/detect/ollama'),
    answerCard: (conversationId, cardId, answer, clientKey) =>
      json('POST', `/api/conversations/${segment(conversationId)}/cards/${segment(cardId)}/answer`, {
        body: { answer, client_key: clientKey },
      }),
    listCards: async (conversationId, status) =>
      (
        await json<{ cards: HitlCardView[] }>('GET', `/api/conversations/${segment(conversationId)}/cards`, {
          query: { status },
        })
      ).cards,
    getCard: (conversationId, cardId) =>
      json('GET', `/api/conversations/${segment(conversationId)}/cards/${segment(cardId)}`),
    getPlanboard: (conversationId) => json('GET', `/api/conversations/${segment(conversationId)}/planboard`),
    addTodo: (conversationId, text) =>
      json('POST', `/api/conversations/${segment(conversationId)}/todos`, { body: { text } }),
    updateTodo: (conversationId, todoId, patch) =>
      json('PATCH', `/api/conversations/${segment(conversationId)}/todos/${segment(todoId)}`, {
        body: patch,
      }),
    removeTodo: (conversationId, todoId) =>
      json('DELETE', `/api/conversations/${segment(conversationId)}/todos/${segment(todoId)}`),
  };
}
