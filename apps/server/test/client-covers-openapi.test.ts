import { createWorkbenchClient, type WorkbenchClient } from '@youyou/client';
import type { ProfileInput, SetupBundle } from '@youyou/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/databases.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

/**
 * Routes in /api/openapi.json that `@youyou/client` deliberately has no method for, each with why.
 * Anything else without a method fails the test.
 */
const NOT_FOR_THE_CLIENT: Readonly<Record<string, string>> = {
  // The AG-UI protocol endpoint (spec §6): its callers are AG-UI clients (`@ag-ui/client`), which
  // speak that protocol's own run input and event stream, not the workbench API.
  'POST /api/ag-ui': 'AG-UI protocol endpoint',
  // An older spelling of `POST /api/components/plugin/{name}/toggle`, kept for callers of the earlier
  // API; the client's `setPluginEnabled` calls the toggle, and one method per operation is enough.
  'PUT /api/components/plugin/{name}/enabled': 'alias of the plugin toggle',
};

/** One way to call a client method; a method that reaches several routes has several. */
type Call = (client: WorkbenchClient) => unknown;

const ID = 'id-1';
const BUNDLE = { format: 'youyou-setup-bundle', version: 1 } as unknown as SetupBundle;
// A whole profile is long; only the request it makes matters here.
const PROFILE = { name: 'Writer' } as ProfileInput;
const file = () => new File(['hello'], 'hello.txt', { type: 'text/plain' });

/**
 * Every client method, called once per route it reaches. Typed by the client's own interface, so a
 * method added without a line here does not compile.
 */
const CALLS: { readonly [Name in keyof WorkbenchClient]: readonly Call[] } = {
  health: [(c) => c.health()],
  listProjects: [(c) => c.listProjects()],
  getProject: [(c) => c.getProject(ID)],
  createProject: [(c) => c.createProject({ name: 'p' })],
  updateProject: [(c) => c.updateProject(ID, { name: 'q' })],
  deleteProject: [(c) => c.deleteProject(ID)],
  listConversations: [(c) => c.listConversations()],
  searchMessages: [(c) => c.searchMessages('words')],
  createConversation: [(c) => c.createConversation({ title: 't' })],
  renameConversation: [(c) => c.renameConversation(ID, 't')],
  updateConversation: [(c) => c.updateConversation(ID, { project_id: null })],
  deleteConversation: [(c) => c.deleteConversation(ID)],
  markRead: [(c) => c.markRead(ID, 3)],
  getConversation: [(c) => c.getConversation(ID)],
  sendMessage: [(c) => c.sendMessage(ID, { text: 'hi' })],
  startConversation: [(c) => c.startConversation({ message: { text: 'hi' } })],
  regenerate: [(c) => c.regenerate(ID, 'message-1')],
  selectBranch: [(c) => c.selectBranch(ID, 'message-1')],
  getRun: [(c) => c.getRun(ID)],
  cancelRun: [(c) => c.cancelRun(ID)],
  getEventLog: [(c) => c.getEventLog(ID)],
  events: [(c) => c.events(ID, { after: 0, reconnect: false })],
  upload: [(c) => c.upload(file())],
  getUpload: [(c) => c.getUpload(ID)],
  deleteUpload: [(c) => c.deleteUpload(ID)],
  uploadUrl: [(c) => c.uploadUrl(ID)],
  listArtifacts: [(c) => c.listArtifacts(ID)],
  listProjectArtifacts: [(c) => c.listProjectArtifacts(ID)],
  resolveArtifact: [(c) => c.resolveArtifact(ID, 'report.md')],
  getArtifact: [(c) => c.getArtifact(ID)],
  getArtifactVersion: [(c) => c.getArtifactVersion(ID, 2)],
  diffArtifact: [(c) => c.diffArtifact(ID, 1, 2)],
  deleteArtifact: [(c) => c.deleteArtifact(ID)],
  artifactRenderUrl: [(c) => c.artifactRenderUrl(ID)],
  artifactDownloadUrl: [(c) => c.artifactDownloadUrl(ID, 1)],
  artifactViewUrl: [(c) => c.artifactViewUrl(ID)],
  agentTree: [(c) => c.agentTree(ID)],
  runEvents: [(c) => c.runEvents(ID)],
  listProviders: [(c) => c.listProviders()],
  getProvider: [(c) => c.getProvider(ID)],
  createProvider: [
    (c) => c.createProvider({ kind: 'openai-compatible', name: 'o', base_url: 'http://127.0.0.1:1' }),
  ],
  updateProvider: [(c) => c.updateProvider(ID, { name: 'o' })],
  refreshProvider: [(c) => c.refreshProvider(ID)],
  deleteProvider: [(c) => c.deleteProvider(ID)],
  testProvider: [
    (c) => c.testProvider(ID),
    (c) => c.testProvider({ kind: 'openai-compatible', name: 'o', base_url: 'http://127.0.0.1:1' }),
  ],
  listModels: [(c) => c.listModels()],
  setDefaultModel: [(c) => c.setDefaultModel(null)],
  listComponents: [(c) => c.listComponents()],
  readComponent: [(c) => c.readComponent('skill', 'haiku', 'global')],
  createComponent: [(c) => c.createComponent({ kind: 'skill', name: 'haiku', layer: 'global' })],
  updateComponent: [(c) => c.updateComponent('skill', 'haiku', 'global', { body: 'b' })],
  deleteComponent: [(c) => c.deleteComponent('skill', 'haiku', 'global')],
  setPluginEnabled: [(c) => c.setPluginEnabled('stamp', false, 'global')],
  archiveUrl: [
    (c) => c.archiveUrl({ conversationId: ID }),
    (c) => c.archiveUrl({ projectId: ID }),
    (c) => c.archiveUrl('everything'),
  ],
  importArchive: [(c) => c.importArchive(new Uint8Array([1]))],
  previewArchiveImport: [(c) => c.previewArchiveImport(new Uint8Array([1]))],
  usage: [(c) => c.usage('day')],
  conversationUsage: [(c) => c.conversationUsage(ID)],
  getPreferences: [(c) => c.getPreferences()],
  putPreferences: [(c) => c.putPreferences({})],
  workbenchEventsUrl: [(c) => c.workbenchEventsUrl()],
  detectOllama: [(c) => c.detectOllama()],
  answerCard: [(c) => c.answerCard(ID, 'card-1', { type: 'confirm', confirmed: true }, 'key-1')],
  listCards: [(c) => c.listCards(ID)],
  getCard: [(c) => c.getCard(ID, 'card-1')],
  getPlanboard: [(c) => c.getPlanboard(ID)],
  addTodo: [(c) => c.addTodo(ID, 'todo')],
  updateTodo: [(c) => c.updateTodo(ID, 'todo-1', { done: true })],
  removeTodo: [(c) => c.removeTodo(ID, 'todo-1')],
  listConversationDocuments: [(c) => c.listConversationDocuments(ID)],
  listProjectDocuments: [(c) => c.listProjectDocuments(ID)],
  getDocument: [(c) => c.getDocument(ID)],
  getUploadDocument: [(c) => c.getUploadDocument(ID)],
  getDocumentBlocks: [(c) => c.getDocumentBlocks(ID, { from: 0, to: 5 })],
  setDocumentKnowledgeScope: [(c) => c.setDocumentKnowledgeScope(ID, 'conversation')],
  retryDocument: [(c) => c.retryDocument(ID)],
  getParsePolicy: [(c) => c.getParsePolicy(ID)],
  setParsePolicy: [
    (c) => c.setParsePolicy(ID, { formats: {}, service: { url: null, timeout_ms: 1000 }, limits: {} }),
  ],
  listParsers: [(c) => c.listParsers()],
  toolCalls: [(c) => c.toolCalls(ID)],
  allToolCalls: [(c) => c.allToolCalls()],
  projectToolCalls: [(c) => c.projectToolCalls(ID)],
  toolGrants: [(c) => c.toolGrants(ID)],
  revokeToolGrant: [(c) => c.revokeToolGrant(ID, 'write_file')],
  listTools: [(c) => c.listTools()],
  updateTool: [(c) => c.updateTool('write_file', { enabled: false })],
  setTimeZone: [(c) => c.setTimeZone('Europe/Paris')],
  contextReports: [(c) => c.contextReports(ID)],
  memorySettings: [(c) => c.memorySettings()],
  updateMemorySettings: [(c) => c.updateMemorySettings({})],
  listMemories: [(c) => c.listMemories()],
  createMemory: [(c) => c.createMemory({ scope: 'user', content: 'likes tea' })],
  getMemory: [(c) => c.getMemory(ID)],
  updateMemory: [(c) => c.updateMemory(ID, { content: 'likes coffee' })],
  deleteMemory: [(c) => c.deleteMemory(ID)],
  exportMemories: [(c) => c.exportMemories()],
  memoryExportUrl: [(c) => c.memoryExportUrl()],
  clearMemories: [(c) => c.clearMemories()],
  runReplay: [(c) => c.runReplay(ID)],
  exportSetupBundle: [(c) => c.exportSetupBundle()],
  previewSetupBundle: [(c) => c.previewSetupBundle(BUNDLE)],
  importSetupBundle: [(c) => c.importSetupBundle(BUNDLE)],
  listKnowledge: [(c) => c.listKnowledge(ID), (c) => c.listKnowledge(null)],
  getKnowledgeItem: [(c) => c.getKnowledgeItem(ID)],
  retryKnowledge: [(c) => c.retryKnowledge(ID)],
  rebuildKnowledge: [(c) => c.rebuildKnowledge(ID)],
  searchKnowledge: [(c) => c.searchKnowledge({ query: 'words' })],
  readKnowledgeDocument: [(c) => c.readKnowledgeDocument(ID)],
  listReferences: [(c) => c.listReferences({ query: 're' })],
  getSettingsSchema: [(c) => c.getSettingsSchema()],
  getEffectiveSettings: [(c) => c.getEffectiveSettings()],
  writeSettings: [(c) => c.writeSettings({ layer: 'user', values: { 'ui.language': 'en' } })],
  resetSetting: [(c) => c.resetSetting('ui.language', { layer: 'user' })],
  getUserSettings: [(c) => c.getUserSettings()],
  updateUserSettings: [(c) => c.updateUserSettings({ 'ui.language': null })],
  listProfiles: [(c) => c.listProfiles()],
  getProfile: [(c) => c.getProfile(ID)],
  createProfile: [(c) => c.createProfile(PROFILE)],
  updateProfile: [(c) => c.updateProfile(ID, { name: 'Editor' })],
  duplicateProfile: [(c) => c.duplicateProfile(ID)],
  listProfileTemplates: [(c) => c.listProfileTemplates()],
  createProfileFromTemplate: [(c) => c.createProfileFromTemplate(ID)],
  listDocumentTemplates: [(c) => c.listDocumentTemplates()],
  deleteProfile: [(c) => c.deleteProfile(ID)],
  importProfiles: [(c) => c.importProfiles('{}')],
  exportProfiles: [(c) => c.exportProfiles([ID, 'id-2'])],
  profilesExportUrl: [(c) => c.profilesExportUrl(ID)],
  runPlan: [(c) => c.runPlan(ID)],
  listCommands: [(c) => c.listCommands()],
  listMacros: [(c) => c.listMacros()],
  createMacro: [(c) => c.createMacro({ name: 'greet', description: 'Greets', template: 'Hello' })],
  updateMacro: [(c) => c.updateMacro(ID, { template: 'Hi' })],
  deleteMacro: [(c) => c.deleteMacro(ID)],
  listSnippets: [(c) => c.listSnippets()],
  createSnippet: [(c) => c.createSnippet({ title: 'sign', body: 'Best', tags: [] })],
  updateSnippet: [(c) => c.updateSnippet(ID, { body: 'Regards' })],
  deleteSnippet: [(c) => c.deleteSnippet(ID)],
  importLibrary: [(c) => c.importLibrary('{}')],
  exportLibrary: [(c) => c.exportLibrary()],
  libraryExportUrl: [(c) => c.libraryExportUrl()],
  conversationExportUrl: [(c) => c.conversationExportUrl(ID, 'markdown')],
  listMcpServers: [(c) => c.listMcpServers()],
  createMcpServer: [
    (c) => c.createMcpServer({ name: 'files', transport: { type: 'stdio', command: 'npx' } }),
  ],
  updateMcpServer: [(c) => c.updateMcpServer(ID, { enabled: false })],
  getMcpServer: [(c) => c.getMcpServer(ID)],
  deleteMcpServer: [(c) => c.deleteMcpServer(ID)],
  connectMcpServer: [(c) => c.connectMcpServer(ID)],
  getMcpPrompt: [(c) => c.getMcpPrompt(ID, 'review', { path: 'a.ts' })],
  listExtensions: [(c) => c.listExtensions()],
  getExtension: [(c) => c.getExtension(ID)],
  previewExtension: [(c) => c.previewExtension('/tmp/extension')],
  uploadExtension: [(c) => c.uploadExtension(file())],
  installExtension: [(c) => c.installExtension({ staging_id: ID, accepted_permissions: {} })],
  setExtensionEnabled: [(c) => c.setExtensionEnabled(ID, false)],
  uninstallExtension: [(c) => c.uninstallExtension(ID)],
  reloadExtension: [(c) => c.reloadExtension(ID)],
  extensionUi: [(c) => c.extensionUi()],
  registry: [(c) => c.registry()],
  setRegistrySource: [(c) => c.setRegistrySource('extension:notes', false)],
  listPanels: [(c) => c.listPanels()],
  runUiAction: [
    (c) =>
      c.runUiAction({
        source: 'extension:notes',
        surface: { kind: 'panel', id: 'notes' },
        action: { tool: 'refresh' },
      }),
  ],
};

/** `GET /api/projects/{id}` as a pattern that matches `/api/projects/id-1`. */
function routePattern(route: string): { method: string; path: RegExp } {
  const [method = '', template = ''] = route.split(' ');
  const path = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
  return { method, path: new RegExp(`^${path}$`) };
}

interface Sent {
  method: string;
  path: string;
}

/** Runs one call against a fetch that answers every request with an empty success, and says what it sent. */
async function sentBy(call: Call): Promise<Sent[]> {
  const sent: Sent[] = [];
  const client = createWorkbenchClient({
    baseUrl: 'http://127.0.0.1:9',
    fetch: (input, init) => {
      sent.push({ method: init?.method ?? 'GET', path: new URL(String(input)).pathname });
      const stream = new Headers(init?.headers).get('accept') === 'text/event-stream';
      return Promise.resolve(
        new Response(stream ? '' : '{}', {
          status: 200,
          headers: { 'content-type': stream ? 'text/event-stream' : 'application/json' },
        }),
      );
    },
  });
  const result = call(client);
  if (typeof result === 'string') sent.push({ method: 'GET', path: new URL(result).pathname });
  else if (result instanceof Promise) await result;
  else if (result !== null && typeof result === 'object' && Symbol.asyncIterator in result) {
    for await (const _event of result as AsyncIterable<unknown>) break;
  }
  return sent;
}

describe('@youyou/client covers the OpenAPI document', () => {
  let database: TestDatabase;
  let server: TestServer;
  let routes: string[];

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    server = await startTestServer({ database });
    const document = await server.call<{ paths: Record<string, Record<string, unknown>> }>(
      'GET',
      '/api/openapi.json',
    );
    routes = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('every client method sends exactly one request per call, to a route the document has', async () => {
    const patterns = routes.map((route) => ({ route, ...routePattern(route) }));
    const strays: string[] = [];
    for (const [name, calls] of Object.entries(CALLS)) {
      for (const call of calls) {
        const sent = await sentBy(call);
        expect(sent, name).toHaveLength(1);
        for (const request of sent) {
          const matches = patterns.some(
            (pattern) => pattern.method === request.method && pattern.path.test(request.path),
          );
          if (!matches) strays.push(`${name}: ${request.method} ${request.path}`);
        }
      }
    }
    expect(strays).toEqual([]);
  });

  it('every route of the document has a client method, except the listed ones not meant for API clients', async () => {
    const reached = new Set<string>();
    const patterns = routes.map((route) => ({ route, ...routePattern(route) }));
    for (const calls of Object.values(CALLS)) {
      for (const call of calls) {
        for (const request of await sentBy(call)) {
          // The most specific route wins: `/api/conversations/start` over `/api/conversations/{id}`.
          const matching = patterns
            .filter((pattern) => pattern.method === request.method && pattern.path.test(request.path))
            .sort((a, b) => braces(a.route) - braces(b.route));
          if (matching[0] !== undefined) reached.add(matching[0].route);
        }
      }
    }
    const missing = routes.filter((route) => !reached.has(route) && !(route in NOT_FOR_THE_CLIENT));
    expect(missing).toEqual([]);
    // A listed route that is gone, or that the client reaches after all, is a stale entry.
    for (const route of Object.keys(NOT_FOR_THE_CLIENT)) {
      expect(routes, route).toContain(route);
      expect(reached.has(route), route).toBe(false);
    }
  });
});

/** How many path parameters a route has: fewer is more specific. */
function braces(route: string): number {
  return route.split('{').length - 1;
}
