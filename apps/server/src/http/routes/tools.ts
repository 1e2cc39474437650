import { createRoute, z } from '@hono/zod-openapi';
import { AgentError } from '@youyou/agent';
import { TOOL_SOURCES, toolSettingsPatchSchema } from '@youyou/contracts';
import { ApiError } from '../../errors/index.ts';
import { isTimeZone, TIME_ZONE_SETTING } from '../../tools/index.ts';
import { errorResponses, IdParameter, json, jsonBody } from '../schemas/index.ts';
import type { ServerServices } from '../../services/index.ts';
import { createRouter } from './router.ts';

const ToolInfoSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    mutating: z.boolean(),
    source: z.enum(TOOL_SOURCES),
    enabled: z.boolean(),
    policy: z.enum(['auto', 'confirm', 'deny']),
    default_policy: z.enum(['auto', 'confirm', 'deny']),
  })
  .openapi('ToolInfo');

const AuditSchema = z
  .object({
    id: z.string(),
    conversation_id: z
      .string()
      .nullable()
      .openapi({ description: "Null for a panel's button pressed outside any conversation." }),
    project_id: z.string().nullable(),
    run_id: z.string(),
    call_id: z.string(),
    tool_name: z.string(),
    arguments_summary: z.string(),
    outcome: z.enum(['success', 'error', 'denied', 'cancelled', 'timeout']),
    error_code: z.string().nullable(),
    duration_ms: z.number(),
    policy: z.enum(['auto', 'confirm', 'deny']),
    decided_by: z.enum(['policy', 'user', 'conversation_grant', 'hook', 'settings']),
    card_id: z.string().nullable(),
    started_at: z.string(),
    ended_at: z.string(),
    source: z.string().nullable().openapi({
      description: "The registry source of what ran (`extension:<id>` for an extension's button).",
    }),
    actor: z.enum(['agent', 'user']).openapi({ description: 'Who asked: the agent in a run, or the user.' }),
  })
  .openapi('ToolAuditRecord');

const AuditQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).optional(),
  before: z.coerce
    .number()
    .int()
    .min(0)
    .optional()
    .openapi({ description: 'Only calls started before this time (ms since the epoch).' }),
  call_id: z.string().max(200).optional(),
  tool_name: z.string().max(200).optional(),
  source: z
    .string()
    .max(200)
    .optional()
    .openapi({ description: 'Only calls of one registry source, e.g. `extension:example`.' }),
});

const NameParameter = z.object({
  name: z
    .string()
    .min(1)
    .max(128)
    .openapi({ param: { name: 'name', in: 'path' } }),
});

const listTools = createRoute({
  method: 'get',
  path: '/tools',
  tags: ['tools'],
  summary:
    'Every tool the workbench knows: built in, from component folders and from MCP servers, with enablement and confirmation policy',
  responses: { 200: json(z.object({ tools: z.array(ToolInfoSchema) })), ...errorResponses() },
});

const updateTool = createRoute({
  method: 'put',
  path: '/tools/{name}',
  tags: ['tools'],
  summary: 'Enable or disable a tool and set its policy (auto | confirm | deny); null restores the default',
  description: 'Agents are rebuilt for their next run with the new tool set.',
  request: { params: NameParameter, body: jsonBody(toolSettingsPatchSchema) },
  responses: { 200: json(ToolInfoSchema), ...errorResponses(404) },
});

const setTimeZone = createRoute({
  method: 'put',
  path: '/time-zone',
  tags: ['tools'],
  summary: "The user's IANA time zone (current_time answers in it); the web UI sets it from the browser",
  request: { body: jsonBody(z.object({ time_zone: z.string().min(1).max(100) })) },
  responses: { 200: json(z.object({ time_zone: z.string() })), ...errorResponses() },
});

const allAudit = createRoute({
  method: 'get',
  path: '/tool-calls',
  tags: ['tools'],
  summary: 'The audit of every tool call in every conversation, newest first (Settings → Tools)',
  request: { query: AuditQuery },
  responses: { 200: json(z.object({ calls: z.array(AuditSchema) })), ...errorResponses() },
});

const conversationAudit = createRoute({
  method: 'get',
  path: '/conversations/{id}/tool-calls',
  tags: ['tools'],
  summary: 'The audit of every tool call in a conversation, newest first',
  request: { params: IdParameter, query: AuditQuery },
  responses: { 200: json(z.object({ calls: z.array(AuditSchema) })), ...errorResponses(404) },
});

const projectAudit = createRoute({
  method: 'get',
  path: '/projects/{id}/tool-calls',
  tags: ['tools'],
  summary: 'The audit of every tool call in a project, newest first',
  request: { params: IdParameter, query: AuditQuery },
  responses: { 200: json(z.object({ calls: z.array(AuditSchema) })), ...errorResponses(404) },
});

const listGrants = createRoute({
  method: 'get',
  path: '/conversations/{id}/tool-grants',
  tags: ['tools'],
  summary: 'Tools allowed "for this conversation" (they run without a confirm card)',
  request: { params: IdParameter },
  responses: { 200: json(z.object({ tools: z.array(z.string()) })), ...errorResponses(404) },
});

const revokeGrant = createRoute({
  method: 'delete',
  path: '/conversations/{id}/tool-grants/{name}',
  tags: ['tools'],
  summary: 'Ask again before this tool runs in this conversation',
  request: { params: IdParameter.extend(NameParameter.shape) },
  responses: { 204: { description: 'Revoked' }, ...errorResponses(404) },
});

function auditOptions(query: z.infer<typeof AuditQuery>) {
  return {
    limit: query.limit ?? 100,
    ...(query.before === undefined ? {} : { before: query.before }),
    ...(query.call_id === undefined ? {} : { callId: query.call_id }),
    ...(query.tool_name === undefined ? {} : { toolName: query.tool_name }),
    ...(query.source === undefined ? {} : { source: query.source }),
  };
}

/** The tool registry (spec §4.3 toolreg): tools, their policy, the call audit, conversation grants. */
export function toolRoutes(services: ServerServices) {
  const { catalog, audit, grants, conversations, projects, settings, pool, mcp } = services;
  /** The tools of connected MCP servers, known before any agent has loaded them. */
  const rememberMcpTools = async (): Promise<void> => {
    for (const row of await mcp.repository.list()) {
      for (const tool of mcp.status(row).tools) {
        if (catalog.known(tool.name) === undefined) catalog.remember(tool, 'mcp');
      }
    }
  };
  return createRouter()
    .openapi(listTools, async (c) => {
      await rememberMcpTools();
      return c.json({ tools: await catalog.list() }, 200);
    })
    .openapi(updateTool, async (c) => {
      const { name } = c.req.valid('param');
      if (catalog.known(name) === undefined) await rememberMcpTools();
      if (catalog.known(name) === undefined) {
        throw ApiError.fromUnknown(
          new AgentError('TOOL_NOT_FOUND', `No tool named '${name}' is known.`, { details: { name } }),
        );
      }
      await catalog.update(name, c.req.valid('json'));
      pool.invalidate();
      const info = (await catalog.list()).find((tool) => tool.name === name);
      return c.json(info as NonNullable<typeof info>, 200);
    })
    .openapi(setTimeZone, async (c) => {
      const { time_zone: timeZone } = c.req.valid('json');
      if (!isTimeZone(timeZone)) {
        throw new ApiError('INVALID_INPUT', `'${timeZone}' is not an IANA time zone.`, {
          details: { time_zone: timeZone },
        });
      }
      await settings.set('user', '', TIME_ZONE_SETTING, timeZone);
      return c.json({ time_zone: timeZone }, 200);
    })
    .openapi(allAudit, async (c) =>
      c.json({ calls: await audit.list(auditOptions(c.req.valid('query'))) }, 200),
    )
    .openapi(conversationAudit, async (c) => {
      const { id } = c.req.valid('param');
      await conversations.get(id);
      return c.json(
        { calls: await audit.list({ conversationId: id, ...auditOptions(c.req.valid('query')) }) },
        200,
      );
    })
    .openapi(projectAudit, async (c) => {
      const { id } = c.req.valid('param');
      await projects.get(id);
      return c.json(
        { calls: await audit.list({ projectId: id, ...auditOptions(c.req.valid('query')) }) },
        200,
      );
    })
    .openapi(listGrants, async (c) => {
      const { id } = c.req.valid('param');
      await conversations.get(id);
      return c.json({ tools: await grants.list(id) }, 200);
    })
    .openapi(revokeGrant, async (c) => {
      const { id, name } = c.req.valid('param');
      await conversations.get(id);
      await grants.remove(id, name);
      return c.body(null, 204);
    });
}
