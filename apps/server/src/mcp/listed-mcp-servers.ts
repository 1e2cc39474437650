import { McpServerCreateSchema, type McpServerCreate } from '@youyou/contracts';
import type { McpServerStore } from './mcp-manager.ts';
import type { McpServerRow } from './mcp-server-repository.ts';

/**
 * MCP servers from a list in code, for an agent outside the workbench (a script, a test, a
 * benchmark): the same manager, connections and tools, without a database. Secret headers are
 * kept in memory.
 *
 * @example
 * const mcp = new McpManager({ repository: new ListedMcpServers([{ name: 'fs', transport }]), clientVersion: '1', defaultCwd });
 * const agent = await new AgentBuilder({ cwd }).addProvider(provider).addComponentSource(mcp.componentSource(null)).build();
 */
export class ListedMcpServers implements McpServerStore {
  readonly #rows: McpServerRow[];
  readonly #secrets = new Map<string, Record<string, string>>();

  constructor(servers: readonly McpServerCreate[]) {
    const now = Date.now();
    this.#rows = servers.map((input, index) => {
      const server = McpServerCreateSchema.parse(input);
      const id = `listed-${index}-${server.name}`;
      this.#secrets.set(id, server.secret_headers ?? {});
      return {
        id,
        owner: null,
        name: server.name,
        scope: 'user',
        project_id: null,
        scope_key: 'user',
        enabled: server.enabled ? 1 : 0,
        transport: JSON.stringify(server.transport),
        secret_headers: '{}',
        tool_timeout_ms: server.tool_timeout_ms ?? null,
        idle_timeout_ms: server.idle_timeout_ms ?? null,
        created_at: now,
        updated_at: now,
      };
    });
  }

  applicable(): Promise<McpServerRow[]> {
    return Promise.resolve(this.#rows.filter((row) => row.enabled === 1));
  }

  secretHeaders(row: McpServerRow): Promise<Record<string, string>> {
    return Promise.resolve({ ...this.#secrets.get(row.id) });
  }
}
