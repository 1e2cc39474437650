import { createWorkbenchClient } from '@youyou/server/client';
import { ApiError } from './api-error.ts';
import type {
  ComponentDocument,
  ComponentKind,
  ComponentList,
  Conversation,
  ConversationUpdate,
  ConversationPage,
  ConversationView,
  FileLayer,
  Health,
  ModelList,
  Project,
  Provider,
  ProviderCreate,
  ProviderTest,
  ProviderUpdate,
  SendMessage,
  SendResult,
  Upload,
  UserPreferences,
  Artifact,
  ArtifactDiff,
  ArtifactVersion,
  AgentTree,
  WorkbenchEvent,
} from '@youyou/contracts';

/** A new component as the settings form describes it. */
export interface ComponentDraft {
  kind: ComponentKind;
  name: string;
  layer: FileLayer;
  frontMatter?: Readonly<Record<string, unknown>>;
  body?: string;
  files?: { path: string; content: string; executable?: boolean }[];
}

/** Everything the UI asks of the server. One implementation speaks HTTP; tests may pass a fake. */
export interface ApiClient {
  health(): Promise<Health>;
  listProjects(): Promise<Project[]>;
  createProject(input: { name: string; directory?: string }): Promise<Project>;
  updateProject(id: string, changes: { name?: string; directory?: string | null }): Promise<Project>;
  deleteProject(id: string): Promise<void>;
  listConversations(options: {
    projectId?: string;
    query?: string;
    cursor?: string;
    limit?: number;
  }): Promise<ConversationPage>;
  createConversation(input: {
    projectId?: string | null;
    title?: string;
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
  sendMessage(conversationId: string, input: SendMessage): Promise<SendResult>;
  /** Answers the same user message again: a sibling of this assistant message. */
  regenerate(conversationId: string, assistantMessageId: string, modelId?: string): Promise<SendResult>;
  /** Shows another branch: the newest leaf below this message becomes active. */
  selectBranch(conversationId: string, messageId: string): Promise<ConversationView>;
  cancelRun(runId: string): Promise<void>;
  upload(file: File, options?: { conversationId?: string; projectId?: string }): Promise<Upload>;
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
  listProviders(): Promise<Provider[]>;
  createProvider(input: ProviderCreate): Promise<Provider>;
  updateProvider(id: string, changes: ProviderUpdate): Promise<Provider>;
  /** Asks the provider's server for its models again (new ones added, the user's edits kept). */
  refreshProvider(id: string): Promise<Provider>;
  deleteProvider(id: string): Promise<void>;
  /** Tests a saved provider (by id) or one not saved yet (its settings). */
  testProvider(target: string | ProviderCreate): Promise<ProviderTest>;
  listModels(): Promise<ModelList>;
  setDefaultModel(modelId: string): Promise<void>;
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
  setPluginEnabled(id: string, enabled: boolean, scope: FileLayer, projectId?: string): Promise<void>;
  /** The UI preferences kept on the server (spec §4.15). */
  getPreferences(): Promise<UserPreferences>;
  putPreferences(preferences: UserPreferences): Promise<void>;
  /** Asks the server whether an Ollama runs on this machine (the page's CSP keeps the browser from asking). */
  detectOllama(): Promise<{ found: boolean; base_url: string; models: string[] }>;
}

interface AnyResponse {
  ok: boolean;
  status: number;
  statusText: string;
  json(): Promise<unknown>;
}

async function checked<Response extends AnyResponse>(
  pending: Promise<Response>,
): Promise<Response & { ok: true }> {
  const response = await pending;
  if (!response.ok) throw await ApiError.fromResponse(response);
  return response as Response & { ok: true };
}

/**
 * The ApiClient over the server's typed client (`@youyou/server/client`, Hono RPC): paths,
 * parameters and bodies are checked against the server's routes by the compiler. Same-origin, with
 * the session cookie the login URL set.
 *
 * @example
 * const api = createHttpClient();
 * const { conversations } = await api.listConversations({ query: 'parser' });
 */
export function createHttpClient(options: { baseUrl?: string; fetch?: typeof fetch } = {}): ApiClient {
  const baseUrl = options.baseUrl ?? '';
  const client = createWorkbenchClient({
    baseUrl: baseUrl === '' ? globalThis.location.origin : baseUrl,
    fetch:
      options.fetch ??
      ((input: RequestInfo | URL, init?: RequestInit) =>
        fetch(input, { ...init, credentials: 'same-origin' })),
  });
  const api = client.api;
  const projectQuery = (projectId: string | undefined) =>
    projectId === undefined ? {} : { project_id: projectId };

  return {
    health: async () => (await checked(api.health.$get())).json(),
    listProjects: async () => (await (await checked(api.projects.$get())).json()).projects,
    createProject: async (input) => (await checked(api.projects.$post({ json: input }))).json(),
    updateProject: async (id, changes) =>
      (await checked(api.projects[':id'].$patch({ param: { id }, json: changes }))).json(),
    deleteProject: async (id) => {
      // The UI asks first, saying the conversations go too.
      await checked(api.projects[':id'].$delete({ param: { id }, query: { force: 'true' } }));
    },
    listConversations: async (listOptions) =>
      (
        await checked(
          api.conversations.$get({
            query: {
              ...projectQuery(listOptions.projectId),
              ...(listOptions.query === undefined ? {} : { q: listOptions.query }),
              ...(listOptions.cursor === undefined ? {} : { cursor: listOptions.cursor }),
              ...(listOptions.limit === undefined ? {} : { limit: String(listOptions.limit) }),
            },
          }),
        )
      ).json(),
    createConversation: async (input) =>
      (
        await checked(
          api.conversations.$post({
            json: {
              ...(input.projectId === undefined ? {} : { project_id: input.projectId }),
              ...(input.title === undefined ? {} : { title: input.title }),
              ...(input.profileId === undefined ? {} : { profile_id: input.profileId }),
            },
          }),
        )
      ).json(),
    renameConversation: async (id, title) =>
      (await checked(api.conversations[':id'].$patch({ param: { id }, json: { title } }))).json(),
    updateConversation: async (id, changes) =>
      (await checked(api.conversations[':id'].$patch({ param: { id }, json: changes }))).json(),
    deleteConversation: async (id) => {
      await checked(api.conversations[':id'].$delete({ param: { id } }));
    },
    markRead: async (id, seq) => {
      await checked(api.conversations[':id'].read.$put({ param: { id }, json: { seq } }));
    },
    getConversation: async (id, getOptions) =>
      (
        await checked(
          api.conversations[':id'].$get(
            {
              param: { id },
              query: {
                ...(getOptions?.before === undefined ? {} : { before: getOptions.before }),
                ...(getOptions?.limit === undefined ? {} : { limit: String(getOptions.limit) }),
              },
            },
            getOptions?.signal === undefined ? undefined : { init: { signal: getOptions.signal } },
          ),
        )
      ).json(),
    sendMessage: async (conversationId, input) =>
      (
        await checked(api.conversations[':id'].messages.$post({ param: { id: conversationId }, json: input }))
      ).json(),
    regenerate: async (conversationId, assistantMessageId, modelId) =>
      (
        await checked(
          api.conversations[':id'].messages[':message_id'].regenerate.$post({
            param: { id: conversationId, message_id: assistantMessageId },
            json: modelId === undefined ? {} : { model_id: modelId },
          }),
        )
      ).json(),
    selectBranch: async (conversationId, messageId) =>
      (
        await checked(
          api.conversations[':id'].branch.$post({
            param: { id: conversationId },
            json: { message_id: messageId },
          }),
        )
      ).json(),
    cancelRun: async (runId) => {
      await checked(api.runs[':id'].cancel.$post({ param: { id: runId } }));
    },
    upload: async (file, uploadOptions) => {
      // Multipart through fetch: the typed client's form encoding would drop the file name.
      const form = new FormData();
      form.set('file', file, file.name);
      if (uploadOptions?.conversationId !== undefined)
        form.set('conversation_id', uploadOptions.conversationId);
      if (uploadOptions?.projectId !== undefined) form.set('project_id', uploadOptions.projectId);
      const response = await fetch(`${baseUrl}/api/uploads`, {
        method: 'POST',
        body: form,
        credentials: 'same-origin',
      });
      if (!response.ok) throw await ApiError.fromResponse(response);
      return (await response.json()) as Upload;
    },
    uploadUrl: (uploadId) => `${baseUrl}/api/uploads/${encodeURIComponent(uploadId)}/content`,
    listArtifacts: async (conversationId) =>
      (
        await (
          await checked(api.conversations[':id'].artifacts.$get({ param: { id: conversationId } }))
        ).json()
      ).artifacts,
    getArtifact: async (id) => (await checked(api.artifacts[':id'].$get({ param: { id } }))).json(),
    getArtifactVersion: async (id, version) =>
      (
        await checked(
          api.artifacts[':id'].versions[':version'].$get({ param: { id, version: String(version) } }),
        )
      ).json(),
    diffArtifact: async (id, from, to) =>
      (
        await checked(
          api.artifacts[':id'].diff.$get({ param: { id }, query: { from: String(from), to: String(to) } }),
        )
      ).json(),
    deleteArtifact: async (id) => {
      await checked(api.artifacts[':id'].$delete({ param: { id } }));
    },
    artifactRenderUrl: (id, version) =>
      `${baseUrl}/api/artifacts/${encodeURIComponent(id)}/render${version === undefined ? '' : `?version=${String(version)}`}`,
    artifactDownloadUrl: (id, version) =>
      `${baseUrl}/api/artifacts/${encodeURIComponent(id)}/download${version === undefined ? '' : `?version=${String(version)}`}`,
    artifactViewUrl: (id) => `${baseUrl}/api/artifacts/${encodeURIComponent(id)}/view`,
    agentTree: async (conversationId) =>
      // The JSON type of a tree node's children is widened by the RPC client; the shape is the contract's.
      (await (
        await checked(api.conversations[':id'].agents.$get({ param: { id: conversationId } }))
      ).json()) as AgentTree,
    runEvents: async (runId) =>
      (await (await checked(api.runs[':id'].events.$get({ param: { id: runId }, query: {} }))).json())
        .events as WorkbenchEvent[],
    listProviders: async () => (await (await checked(api.providers.$get())).json()).providers,
    createProvider: async (input) => (await checked(api.providers.$post({ json: input }))).json(),
    updateProvider: async (id, changes) =>
      (await checked(api.providers[':id'].$patch({ param: { id }, json: changes }))).json(),
    refreshProvider: async (id) =>
      (await checked(api.providers[':id'].refresh.$post({ param: { id } }))).json(),
    deleteProvider: async (id) => {
      await checked(api.providers[':id'].$delete({ param: { id } }));
    },
    testProvider: async (target) => {
      const started = performance.now();
      const result =
        typeof target === 'string'
          ? await (await checked(api.providers[':id'].test.$post({ param: { id: target } }))).json()
          : await (
              await checked(
                api.providers.test.$post({
                  json: {
                    kind: target.kind,
                    base_url: target.base_url,
                    name: target.name,
                    ...(target.api_key === undefined ? {} : { api_key: target.api_key }),
                  },
                }),
              )
            ).json();
      return { ...result, latency_ms: Math.round(performance.now() - started) };
    },
    listModels: async () => (await checked(api.models.$get())).json(),
    setDefaultModel: async (modelId) => {
      await checked(api.models.default.$put({ json: { model_id: modelId } }));
    },
    listComponents: async (projectId) =>
      (await checked(api.components.$get({ query: projectQuery(projectId) }))).json(),
    readComponent: async (kind, name, layer, projectId) =>
      (
        await checked(
          api.components[':kind'][':name'].$get({
            param: { kind, name },
            query: { layer, ...projectQuery(projectId) },
          }),
        )
      ).json(),
    createComponent: async (draft, projectId) =>
      (
        await checked(
          api.components.$post({
            query: {},
            json: {
              kind: draft.kind,
              name: draft.name,
              layer: draft.layer,
              ...projectQuery(projectId),
              ...(draft.frontMatter === undefined ? {} : { front_matter: { ...draft.frontMatter } }),
              ...(draft.body === undefined ? {} : { body: draft.body }),
              ...(draft.files === undefined ? {} : { files: draft.files }),
            },
          }),
        )
      ).json(),
    updateComponent: async (kind, name, layer, changes, projectId) =>
      (
        await checked(
          api.components[':kind'][':name'].$patch({
            param: { kind, name },
            query: {},
            json: {
              layer,
              ...projectQuery(projectId),
              ...(changes.frontMatter === undefined ? {} : { front_matter: { ...changes.frontMatter } }),
              ...(changes.body === undefined ? {} : { body: changes.body }),
            },
          }),
        )
      ).json(),
    deleteComponent: async (kind, name, layer, projectId) => {
      await checked(
        api.components[':kind'][':name'].$delete({
          param: { kind, name },
          query: { layer, ...projectQuery(projectId) },
        }),
      );
    },
    setPluginEnabled: async (id, enabled, scope, projectId) => {
      await checked(
        api.components.plugin[':name'].toggle.$post({
          param: { name: id },
          json: { enabled, scope, ...projectQuery(projectId) },
        }),
      );
    },
    getPreferences: async () => (await (await checked(api.preferences.$get())).json()).preferences,
    putPreferences: async (preferences) => {
      await checked(api.preferences.$put({ json: { preferences: { ...preferences } } }));
    },
    detectOllama: async () => (await checked(api.providers.detect.ollama.$get())).json(),
  };
}
