import { createRoute, z } from '@hono/zod-openapi';
import {
  McpPromptRequestSchema,
  McpPromptResultSchema,
  McpServerCreateSchema,
  McpServerListSchema,
  McpServerSchema,
  McpServerUpdateSchema,
} from '@youyou/contracts';
import { ApiError } from '../../errors/index.ts';
import { mcpServerViewOf } from '../../mcp/index.ts';
import { errorResponses, IdParameter, json, jsonBody } from '../schemas/index.ts';
import type { ServerServices } from '../../services/index.ts';
import { createRouter } from './router.ts';

const tags = ['mcp'];

const listServers = createRoute({
  method: 'get',
  path: '/mcp/servers',
  tags,
  summary:
    'MCP servers with their live status; `project_id` narrows to one project, `scope=user` to the user’s',
  request: {
    query: z.object({
      project_id: z.string().min(1).max(128).optional(),
      scope: z.enum(['user', 'project']).optional(),
    }),
  },
  responses: { 200: json(McpServerListSchema), ...errorResponses() },
});

const createServer = createRoute({
  method: 'post',
  path: '/mcp/servers',
  tags,
  summary: 'Add an MCP server (stdio or Streamable HTTP); it starts when a conversation first needs it',
  request: { body: jsonBody(McpServerCreateSchema) },
  responses: { 201: json(McpServerSchema, 'Created'), ...errorResponses(404, 409) },
});

const getServer = createRoute({
  method: 'get',
  path: '/mcp/servers/{id}',
  tags,
  summary: 'An MCP server and its status (connected, failed and why, its tools)',
  request: { params: IdParameter },
  responses: { 200: json(McpServerSchema), ...errorResponses(404) },
});

const updateServer = createRoute({
  method: 'patch',
  path: '/mcp/servers/{id}',
  tags,
  summary: 'Change an MCP server; its connection restarts with the new configuration',
  request: { params: IdParameter, body: jsonBody(McpServerUpdateSchema) },
  responses: { 200: json(McpServerSchema), ...errorResponses(404, 409) },
});

const deleteServer = createRoute({
  method: 'delete',
  path: '/mcp/servers/{id}',
  tags,
  summary: 'Remove an MCP server (its process is stopped, its secrets deleted)',
  request: { params: IdParameter },
  responses: { 204: { description: 'Deleted' }, ...errorResponses(404) },
});

const connectServer = createRoute({
  method: 'post',
  path: '/mcp/servers/{id}/connect',
  tags,
  summary: 'Start (or restart) the server now and report its status: the "test connection" button',
  request: { params: IdParameter },
  responses: { 200: json(McpServerSchema), ...errorResponses(404) },
});

const getPrompt = createRoute({
  method: 'post',
  path: '/mcp/servers/{id}/prompts/{name}',
  tags,
  summary: "Fill one of the server's prompts with its arguments (MCP prompts/get): the / command's text",
  description: 'GET /api/commands lists the prompts of connected servers as `<server>__<prompt>` commands.',
  request: {
    params: IdParameter.extend({
      name: z
        .string()
        .min(1)
        .max(200)
        .openapi({ param: { name: 'name', in: 'path' } }),
    }),
    body: jsonBody(McpPromptRequestSchema),
  },
  responses: { 200: json(McpPromptResultSchema), ...errorResponses(404, 502) },
});

/** MCP server configuration and status (spec §4.8). */
export function mcpRoutes(services: ServerServices) {
  const { mcp } = services;
  const view = (row: Parameters<typeof mcp.status>[0]) => mcpServerViewOf(row, mcp.status(row));
  return createRouter()
    .openapi(listServers, async (c) => {
      const query = c.req.valid('query');
      const rows = await mcp.repository.list(query.project_id ?? (query.scope === 'user' ? null : undefined));
      const filtered = query.scope === undefined ? rows : rows.filter((row) => row.scope === query.scope);
      return c.json({ servers: filtered.map(view) }, 200);
    })
    .openapi(createServer, async (c) => {
      const row = await mcp.repository.create(c.req.valid('json'));
      return c.json(view(row), 201);
    })
    .openapi(getServer, async (c) => c.json(view(await mcp.repository.get(c.req.valid('param').id)), 200))
    .openapi(updateServer, async (c) => {
      const { id } = c.req.valid('param');
      const row = await mcp.repository.update(id, c.req.valid('json'));
      await mcp.forget(id);
      return c.json(view(row), 200);
    })
    .openapi(deleteServer, async (c) => {
      const { id } = c.req.valid('param');
      await mcp.repository.delete(id);
      await mcp.forget(id);
      return c.body(null, 204);
    })
    .openapi(connectServer, async (c) => {
      const { id } = c.req.valid('param');
      const row = await mcp.repository.get(id);
      await mcp.forget(id);
      return c.json(mcpServerViewOf(row, await mcp.connect(row)), 200);
    })
    .openapi(getPrompt, async (c) => {
      const { id, name } = c.req.valid('param');
      const row = await mcp.repository.get(id);
      try {
        return c.json(await mcp.prompt(row, name, c.req.valid('json').arguments), 200);
      } catch (error) {
        // The SDK loads with the first MCP connection (mcp-manager.ts), which a prompt has made.
        const { ErrorCode, McpError } = await import('@modelcontextprotocol/sdk/types.js');
        if (error instanceof McpError && error.code === ErrorCode.InvalidParams) {
          throw new ApiError('INVALID_INPUT', `The server ${row.name} refused the prompt: ${error.message}`, {
            details: { server: row.name, prompt: name },
          });
        }
        throw new ApiError(
          'PROVIDER_ERROR',
          `The server ${row.name} could not fill the prompt: ${String(error)}`,
          {
            details: { server: row.name, prompt: name },
          },
        );
      }
    });
}
