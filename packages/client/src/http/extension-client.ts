import type {
  ExtensionInstallRequest,
  ExtensionPreview,
  ExtensionUiEntry,
  InstalledExtension,
  McpPromptResult,
  McpServer,
  McpServerCreate,
  McpServerUpdate,
  RegistryList,
  UiActionRequest,
  UiActionResult,
  UiPanelList,
} from '@youyou/contracts';
import { ApiError, type Connection } from '../connection/index.ts';

/** MCP servers, extensions, their panels and actions, and the registry (spec §4.6, §4.8). */
export interface ExtensionClientMethods {
  /** MCP servers with their live status (spec §4.8). */
  listMcpServers(): Promise<McpServer[]>;
  createMcpServer(input: McpServerCreate): Promise<McpServer>;
  updateMcpServer(id: string, changes: McpServerUpdate): Promise<McpServer>;
  getMcpServer(id: string): Promise<McpServer>;
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
  getExtension(id: string): Promise<InstalledExtension>;
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
  /** The right-column panels of every enabled extension (spec §4.6). */
  listPanels(): Promise<UiPanelList>;
  /** Runs the tool or command a panel's or a card's button or form names (same policy as in a run). */
  runUiAction(request: UiActionRequest): Promise<UiActionResult>;
}

const segment = encodeURIComponent;

/** The MCP and extension methods over one connection. */
export function extensionClientMethods(connection: Connection): ExtensionClientMethods {
  const json = connection.json.bind(connection);
  return {
    listMcpServers: async () => (await json<{ servers: McpServer[] }>('GET', '/api/mcp/servers')).servers,
    createMcpServer: (input) => json('POST', '/api/mcp/servers', { body: input }),
    updateMcpServer: (id, changes) => json('PATCH', `/api/mcp/servers/${segment(id)}`, { body: changes }),
    getMcpServer: (id) => json('GET', `/api/mcp/servers/${segment(id)}`),
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
    getExtension: (id) => json('GET', `/api/extensions/${segment(id)}`),
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
    listPanels: () => json('GET', '/api/extensions/panels'),
    runUiAction: (request) => json('POST', '/api/extensions/actions', { body: request }),
  };
}
