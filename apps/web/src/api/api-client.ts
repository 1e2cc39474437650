import { ApiError } from './api-error.ts';
import type {
  ComponentDocument,
  ComponentDraft,
  ComponentKind,
  ComponentListing,
  ConversationPage,
  ConversationQuery,
  ConversationSummary,
  Health,
  ModelsResponse,
  Preferences,
  Project,
  ProviderConfig,
  ProviderInput,
  ProviderTestResult,
  SendMessageRequest,
  SendMessageResponse,
  Upload,
} from './types.ts';

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
  createConversation(input: { projectId?: string | null; title?: string }): Promise<ConversationSummary>;
  renameConversation(id: string, title: string): Promise<ConversationSummary>;
  deleteConversation(id: string): Promise<void>;
  getConversation(id: string, options?: { signal?: AbortSignal }): Promise<ConversationQuery>;
  sendMessage(conversationId: string, input: SendMessageRequest): Promise<SendMessageResponse>;
  regenerate(conversationId: string, messageId: string, modelId?: string): Promise<SendMessageResponse>;
  /** Shows another branch: the sibling message becomes part of the active branch. */
  selectBranch(conversationId: string, messageId: string): Promise<void>;
  cancelRun(runId: string): Promise<void>;
  upload(file: File, options?: { conversationId?: string; signal?: AbortSignal }): Promise<Upload>;
  uploadUrl(uploadId: string): string;
  listProviders(): Promise<ProviderConfig[]>;
  createProvider(input: ProviderInput): Promise<ProviderConfig>;
  updateProvider(id: string, input: Partial<ProviderInput>): Promise<ProviderConfig>;
  deleteProvider(id: string): Promise<void>;
  testProvider(input: ProviderInput | { id: string }): Promise<ProviderTestResult>;
  listModels(): Promise<ModelsResponse>;
  setDefaultModel(modelId: string): Promise<void>;
  listComponents(projectId?: string): Promise<ComponentListing>;
  readComponent(
    kind: ComponentKind,
    name: string,
    layer: 'global' | 'project',
    projectId?: string,
  ): Promise<ComponentDocument>;
  createComponent(draft: ComponentDraft, projectId?: string): Promise<ComponentDocument>;
  updateComponent(
    kind: ComponentKind,
    name: string,
    layer: 'global' | 'project',
    changes: { frontMatter?: Readonly<Record<string, unknown>>; body?: string; entry?: string },
    projectId?: string,
  ): Promise<ComponentDocument>;
  deleteComponent(
    kind: ComponentKind,
    name: string,
    layer: 'global' | 'project',
    projectId?: string,
  ): Promise<void>;
  setPluginEnabled(
    id: string,
    enabled: boolean,
    scope: 'global' | 'project',
    projectId?: string,
  ): Promise<void>;
  getPreferences(): Promise<Preferences>;
  putPreferences(preferences: Preferences): Promise<void>;
  /** Probes a local Ollama through the server (the browser cannot reach other origins under CSP). */
  detectOllama(): Promise<{ found: boolean; base_url: string; models: string[] }>;
}

function query(parameters: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(parameters))
    if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

function layerQuery(layer: string, projectId: string | undefined): string {
  return query({ layer, project_id: projectId });
}

/**
 * The ApiClient over `fetch`, same-origin with the session cookie (`credentials: 'same-origin'`).
 *
 * @example
 * const api = createHttpClient({ baseUrl: '' });
 * const { conversations } = await api.listConversations({ query: 'parser' });
 */
export function createHttpClient(options: { baseUrl?: string; fetch?: typeof fetch } = {}): ApiClient {
  const baseUrl = options.baseUrl ?? '';
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  async function request<Result>(
    method: string,
    path: string,
    body?: unknown,
    signal?: AbortSignal,
  ): Promise<Result> {
    const init: RequestInit = { method, credentials: 'same-origin', headers: { accept: 'application/json' } };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { accept: 'application/json', 'content-type': 'application/json' };
    }
    if (signal !== undefined) init.signal = signal;
    const response = await doFetch(`${baseUrl}/api${path}`, init);
    if (!response.ok) throw await ApiError.fromResponse(response);
    if (response.status === 204) return undefined as Result;
    const text = await response.text();
    return (text === '' ? undefined : JSON.parse(text)) as Result;
  }

  const encode = encodeURIComponent;
  return {
    health: () => request('GET', '/health'),
    listProjects: async () => (await request<{ projects: Project[] }>('GET', '/projects')).projects,
    createProject: (input) => request('POST', '/projects', input),
    updateProject: (id, changes) => request('PATCH', `/projects/${encode(id)}`, changes),
    deleteProject: (id) => request('DELETE', `/projects/${encode(id)}`),
    listConversations: (listOptions) =>
      request(
        'GET',
        `/conversations${query({
          project_id: listOptions.projectId,
          q: listOptions.query,
          cursor: listOptions.cursor,
          limit: listOptions.limit,
        })}`,
      ),
    createConversation: (input) =>
      request('POST', '/conversations', {
        ...(input.projectId === undefined ? {} : { project_id: input.projectId }),
        ...(input.title === undefined ? {} : { title: input.title }),
      }),
    renameConversation: (id, title) => request('PATCH', `/conversations/${encode(id)}`, { title }),
    deleteConversation: (id) => request('DELETE', `/conversations/${encode(id)}`),
    getConversation: (id, getOptions) =>
      request('GET', `/conversations/${encode(id)}`, undefined, getOptions?.signal),
    sendMessage: (conversationId, input) =>
      request('POST', `/conversations/${encode(conversationId)}/messages`, input),
    regenerate: (conversationId, messageId, modelId) =>
      request(
        'POST',
        `/conversations/${encode(conversationId)}/messages/${encode(messageId)}/regenerate`,
        modelId === undefined ? {} : { model_id: modelId },
      ),
    selectBranch: (conversationId, messageId) =>
      request('POST', `/conversations/${encode(conversationId)}/branch`, { message_id: messageId }),
    cancelRun: (runId) => request('POST', `/runs/${encode(runId)}/cancel`, {}),
    upload: async (file, uploadOptions) => {
      const form = new FormData();
      form.set('file', file, file.name);
      if (uploadOptions?.conversationId !== undefined)
        form.set('conversation_id', uploadOptions.conversationId);
      const init: RequestInit = { method: 'POST', body: form, credentials: 'same-origin' };
      if (uploadOptions?.signal !== undefined) init.signal = uploadOptions.signal;
      const response = await doFetch(`${baseUrl}/api/uploads`, init);
      if (!response.ok) throw await ApiError.fromResponse(response);
      return (await response.json()) as Upload;
    },
    uploadUrl: (uploadId) => `${baseUrl}/api/uploads/${encode(uploadId)}/content`,
    listProviders: async () =>
      (await request<{ providers: ProviderConfig[] }>('GET', '/providers')).providers,
    createProvider: (input) => request('POST', '/providers', input),
    updateProvider: (id, input) => request('PATCH', `/providers/${encode(id)}`, input),
    deleteProvider: (id) => request('DELETE', `/providers/${encode(id)}`),
    testProvider: (input) =>
      'id' in input
        ? request('POST', `/providers/${encode(input.id)}/test`, {})
        : request('POST', '/providers/test', input),
    listModels: () => request('GET', '/models'),
    setDefaultModel: (modelId) => request('PUT', '/models/default', { model_id: modelId }),
    listComponents: (projectId) => request('GET', `/components${query({ project_id: projectId })}`),
    readComponent: (kind, name, layer, projectId) =>
      request('GET', `/components/${encode(kind)}/${encode(name)}${layerQuery(layer, projectId)}`),
    createComponent: (draft, projectId) =>
      request('POST', `/components${query({ project_id: projectId })}`, draft),
    updateComponent: (kind, name, layer, changes, projectId) =>
      request('PATCH', `/components/${encode(kind)}/${encode(name)}${layerQuery(layer, projectId)}`, changes),
    deleteComponent: (kind, name, layer, projectId) =>
      request('DELETE', `/components/${encode(kind)}/${encode(name)}${layerQuery(layer, projectId)}`),
    setPluginEnabled: (id, enabled, scope, projectId) =>
      request('PUT', `/components/plugin/${encode(id)}/enabled${query({ project_id: projectId })}`, {
        enabled,
        scope,
      }),
    getPreferences: async () =>
      (await request<{ preferences: Preferences }>('GET', '/preferences')).preferences,
    putPreferences: (preferences) => request('PUT', '/preferences', { preferences }),
    detectOllama: () => request('GET', '/providers/detect/ollama'),
  };
}
