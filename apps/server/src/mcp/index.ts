export { ListedMcpServers } from './listed-mcp-servers.ts';
export { McpManager } from './mcp-manager.ts';
export type { McpManagerOptions, McpServerStore } from './mcp-manager.ts';
export { McpServerRepository, mcpServerViewOf } from './mcp-server-repository.ts';
export type { McpServerRow } from './mcp-server-repository.ts';
export { MCP_SETTINGS_SECTION, registerMcpSettings } from './mcp-settings.ts';
export { mapToolResult } from './mcp-tool-result.ts';
export type { McpMediaBlock, McpResultMetadata } from './mcp-tool-result.ts';
