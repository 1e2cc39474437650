import { z } from 'zod';

/**
 * A server's name: the prefix of its tools (`<server>__<tool>`), so lowercase letters, digits and
 * single hyphens — never `__`, which separates the server from the tool.
 *
 * @example
 * McpServerNameSchema.parse('github'); // ok; 'Git Hub' and 'a__b' are refused
 */
export const McpServerNameSchema = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/, 'lowercase letters, digits and hyphens, at most 32')
  .refine((name) => !name.includes('--'), 'no double hyphens');

/** What separates a server's name from its tool's name in the tool names the model sees. */
export const MCP_TOOL_SEPARATOR = '__';

const EnvironmentName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'an environment variable name');
const HeaderName = z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/, 'an HTTP header name');

/**
 * A local server the workbench starts as a child process and speaks to over stdin/stdout.
 *
 * @example
 * { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/srv/docs'] }
 */
export const McpStdioTransportSchema = z.object({
  type: z.literal('stdio'),
  command: z.string().min(1).max(4096),
  args: z.array(z.string().max(8192)).max(256).default([]),
  /** Added to a minimal environment (PATH, HOME, …): the server never sees the workbench's secrets. */
  env: z.record(EnvironmentName, z.string().max(32_768)).default({}),
  /** The working directory; absent: the project directory for project servers, else the data directory. */
  cwd: z.string().min(1).max(4096).optional(),
});

/**
 * A remote server over MCP's Streamable HTTP transport. Header values are plain text, except those
 * named in `secret_headers` (write-only: stored encrypted, never returned).
 *
 * @example
 * { type: 'http', url: 'https://mcp.example.com/mcp', headers: { 'X-Team': 'docs' } }
 */
export const McpHttpTransportSchema = z.object({
  type: z.literal('http'),
  url: z
    .string()
    .url()
    .max(4096)
    .refine((url) => /^https?:\/\//i.test(url), 'an http or https URL'),
  headers: z.record(HeaderName, z.string().max(8192)).default({}),
});

export const McpTransportSchema = z.discriminatedUnion('type', [
  McpStdioTransportSchema,
  McpHttpTransportSchema,
]);

/** Where a server applies: to every conversation of the user, or to one project's conversations. */
export const McpScopeSchema = z.enum(['user', 'project']);

/**
 * A server to add (`POST /api/mcp/servers`).
 *
 * @example
 * {
 *   name: 'docs', scope: 'user',
 *   transport: { type: 'http', url: 'https://mcp.example.com/mcp' },
 *   secret_headers: { Authorization: 'Bearer …' },
 * }
 */
export const McpServerCreateSchema = z.object({
  name: McpServerNameSchema,
  scope: McpScopeSchema.default('user'),
  /** Required with `scope: 'project'`. */
  project_id: z.string().min(1).max(128).optional(),
  enabled: z.boolean().default(true),
  transport: McpTransportSchema,
  /** HTTP headers whose values are secrets (tokens, keys): stored encrypted, never returned. */
  secret_headers: z.record(HeaderName, z.string().min(1).max(8192)).optional(),
  /** Overrides the agent's tool timeout for this server's tools. */
  tool_timeout_ms: z.number().int().min(100).max(3_600_000).optional(),
  /** How long an unused connection stays open; default ten minutes. */
  idle_timeout_ms: z.number().int().min(1000).max(86_400_000).optional(),
});
export type McpServerCreate = z.input<typeof McpServerCreateSchema>;

/**
 * A change to a server (`PATCH /api/mcp/servers/:id`): the fields given replace the stored ones;
 * a `secret_headers` entry set to `null` removes that secret header.
 */
export const McpServerUpdateSchema = z.object({
  name: McpServerNameSchema.optional(),
  enabled: z.boolean().optional(),
  transport: McpTransportSchema.optional(),
  secret_headers: z.record(HeaderName, z.string().min(1).max(8192).nullable()).optional(),
  tool_timeout_ms: z.number().int().min(100).max(3_600_000).nullable().optional(),
  idle_timeout_ms: z.number().int().min(1000).max(86_400_000).nullable().optional(),
});
export type McpServerUpdate = z.input<typeof McpServerUpdateSchema>;

/** Where a connection is: not started yet (lazy), starting, connected, failed, or stopped when idle. */
export const McpConnectionStateSchema = z.enum(['idle', 'connecting', 'connected', 'failed', 'disabled']);
export type McpConnectionState = z.infer<typeof McpConnectionStateSchema>;

/** A tool a server offers, as the model sees it. */
export const McpToolInfoSchema = z.object({
  /** `<server>__<tool>`, what the model calls. */
  name: z.string(),
  /** The tool's own name on its server. */
  remote_name: z.string(),
  description: z.string(),
  /** False when the server marks it read-only (`readOnlyHint`); unannotated tools count as mutating. */
  mutating: z.boolean(),
  destructive: z.boolean(),
});
export type McpToolInfo = z.infer<typeof McpToolInfoSchema>;

/** A tool the server offers that the workbench does not (its schema does not compile, say). */
export const McpSkippedToolSchema = z.object({ remote_name: z.string(), reason: z.string() });

/**
 * The live state of a server's connection (spec §4.8): connected, failed and why, its tools.
 *
 * @example
 * { state: 'failed', error: 'spawn mcp-server-x ENOENT', tool_count: 0, restarts: 3, … }
 */
export const McpServerStatusSchema = z.object({
  state: McpConnectionStateSchema,
  /** Why it failed (the last error), when it did. */
  error: z.string().nullable(),
  tool_count: z.number().int(),
  tools: z.array(McpToolInfoSchema),
  skipped_tools: z.array(McpSkippedToolSchema),
  /** Restarts after a crash since the server was configured or last changed. */
  restarts: z.number().int(),
  /** When the next restart is tried, while backing off. */
  retry_at: z.string().nullable(),
  /** The server's name and version from its `initialize` answer. */
  server_info: z.object({ name: z.string(), version: z.string() }).nullable(),
  connected_at: z.string().nullable(),
  /** The server's process id while a stdio server runs; null for HTTP servers and when stopped. */
  pid: z.number().int().nullable(),
  /** The last lines the server wrote to stderr (stdio servers), newest last. */
  stderr_tail: z.array(z.string()),
});
export type McpServerStatus = z.infer<typeof McpServerStatusSchema>;

/** A configured server as the API returns it: secret header values never, only their names. */
export const McpServerSchema = z.object({
  id: z.string(),
  name: z.string(),
  scope: McpScopeSchema,
  project_id: z.string().nullable(),
  enabled: z.boolean(),
  transport: McpTransportSchema,
  secret_header_names: z.array(z.string()),
  tool_timeout_ms: z.number().int().nullable(),
  idle_timeout_ms: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  status: McpServerStatusSchema,
});
export type McpServer = z.infer<typeof McpServerSchema>;

export const McpServerListSchema = z.object({ servers: z.array(McpServerSchema) });
export type McpServerList = z.infer<typeof McpServerListSchema>;
export type McpTransport = z.infer<typeof McpTransportSchema>;

/** A prompt an MCP server offers (`prompts/list`), as `GET /api/commands` lists it as a `/` command. */
export interface McpPromptInfo {
  server_id: string;
  server: string;
  /** The prompt's own name on its server. */
  name: string;
  /** The `/` command: `<server>__<prompt>`, lowercase. */
  command: string;
  description: string;
  arguments: { name: string; description: string; required: boolean }[];
}

/** The body of `POST /api/mcp/servers/:id/prompts/:name`: the prompt's arguments. */
export const McpPromptRequestSchema = z.object({
  arguments: z.record(z.string().max(200), z.string().max(20_000)).default({}),
});
export type McpPromptRequest = z.input<typeof McpPromptRequestSchema>;

/** A prompt filled in (`prompts/get`): its messages as text, and all of it as one text for the composer. */
export const McpPromptResultSchema = z.object({
  description: z.string().nullable(),
  messages: z.array(z.object({ role: z.enum(['user', 'assistant']), text: z.string() })),
  text: z.string(),
});
export type McpPromptResult = z.infer<typeof McpPromptResultSchema>;
