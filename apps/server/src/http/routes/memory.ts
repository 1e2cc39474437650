import { createRoute, z } from '@hono/zod-openapi';
import {
  MemoryClearRequestSchema,
  MemoryClearResultSchema,
  MemoryCreateSchema,
  MemoryExportSchema,
  MemoryCreatedSchema,
  MemoryItemSchema,
  MemoryListSchema,
  MemoryScopeSchema,
  MemorySettingsSchema,
  MemoryUpdateSchema,
} from '@youyou/contracts';
import { errorResponses, IdParameter, json, jsonBody } from '../schemas/index.ts';
import type { ServerServices } from '../../services/index.ts';
import { createRouter } from './router.ts';

const tags = ['memory'];

const getSettings = createRoute({
  method: 'get',
  path: '/memory/settings',
  tags,
  summary:
    'Whether memory is on (off by default), how many memories a request carries, and whether candidates are proposed',
  request: { query: z.object({ project_id: z.string().max(128).optional() }) },
  responses: { 200: json(MemorySettingsSchema), ...errorResponses() },
});

const putSettings = createRoute({
  method: 'put',
  path: '/memory/settings',
  tags,
  summary: "Changes the user's memory settings (the switch that turns memory off entirely)",
  request: { body: jsonBody(MemorySettingsSchema.partial()) },
  responses: { 200: json(MemorySettingsSchema), ...errorResponses() },
});

const listMemories = createRoute({
  method: 'get',
  path: '/memories',
  tags,
  summary: 'Memories, newest first; `q` searches content and tags; `scope` and `project_id` narrow',
  request: {
    query: z.object({
      scope: MemoryScopeSchema.optional(),
      project_id: z.string().max(128).optional(),
      q: z.string().max(200).optional(),
      limit: z.coerce.number().int().min(1).max(500).optional(),
      offset: z.coerce.number().int().min(0).optional(),
    }),
  },
  responses: { 200: json(MemoryListSchema), ...errorResponses() },
});

const createMemory = createRoute({
  method: 'post',
  path: '/memories',
  tags,
  summary: 'Remember something (the memory page, `/remember`, "remember this"); refused while memory is off',
  request: { body: jsonBody(MemoryCreateSchema) },
  responses: { 201: json(MemoryCreatedSchema), ...errorResponses(404, 409) },
});

const exportMemories = createRoute({
  method: 'get',
  path: '/memories/export',
  tags,
  summary: 'Every memory as one JSON file (youyou.memory)',
  responses: { 200: json(MemoryExportSchema), ...errorResponses() },
});

const clearMemories = createRoute({
  method: 'post',
  path: '/memories/clear',
  tags,
  summary: "Deletes every memory, one scope's, or one project's",
  request: { body: jsonBody(MemoryClearRequestSchema) },
  responses: { 200: json(MemoryClearResultSchema), ...errorResponses() },
});

const getMemory = createRoute({
  method: 'get',
  path: '/memories/{id}',
  tags,
  summary: 'One memory',
  request: { params: IdParameter },
  responses: { 200: json(MemoryItemSchema), ...errorResponses(404) },
});

const updateMemory = createRoute({
  method: 'patch',
  path: '/memories/{id}',
  tags,
  summary: "Edits a memory's content, type, confidence, tags or expiry",
  request: { params: IdParameter, body: jsonBody(MemoryUpdateSchema) },
  responses: { 200: json(MemoryItemSchema), ...errorResponses(404) },
});

const deleteMemory = createRoute({
  method: 'delete',
  path: '/memories/{id}',
  tags,
  summary: 'Forgets one memory',
  request: { params: IdParameter },
  responses: { 204: { description: 'Deleted' }, ...errorResponses(404) },
});

/**
 * Memory (spec §4.13): settings, the memory page's list and edits, export, clear. Candidates are
 * confirmed on HITL cards (`POST /conversations/{id}/cards/{card_id}/answer`), not here.
 */
export function memoryRoutes(services: ServerServices) {
  const { memory } = services;
  return createRouter()
    .openapi(getSettings, async (c) => {
      const { project_id } = c.req.valid('query');
      return c.json(await memory.settings({ projectId: project_id ?? null }), 200);
    })
    .openapi(putSettings, async (c) => c.json(await memory.updateSettings(c.req.valid('json')), 200))
    .openapi(listMemories, async (c) => {
      const query = c.req.valid('query');
      return c.json(
        await memory.list({
          scope: query.scope,
          projectId: query.project_id,
          q: query.q,
          limit: query.limit,
          offset: query.offset,
        }),
        200,
      );
    })
    .openapi(createMemory, async (c) => c.json(await memory.create(c.req.valid('json')), 201))
    .openapi(exportMemories, async (c) => {
      c.header('Content-Disposition', 'attachment; filename="youyou-memory.json"');
      return c.json(await memory.export(), 200);
    })
    .openapi(clearMemories, async (c) => {
      const body = c.req.valid('json');
      const deleted = await memory.repository.clear({ scope: body.scope, projectId: body.project_id });
      return c.json({ deleted }, 200);
    })
    .openapi(getMemory, async (c) => c.json(await memory.repository.get(c.req.valid('param').id), 200))
    .openapi(updateMemory, async (c) =>
      c.json(await memory.repository.update(c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(deleteMemory, async (c) => {
      await memory.repository.delete(c.req.valid('param').id);
      return c.body(null, 204);
    });
}
