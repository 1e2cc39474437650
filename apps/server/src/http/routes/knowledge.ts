import { createRoute, z } from '@hono/zod-openapi';
import {
  KnowledgeDocumentPageSchema,
  KnowledgeItemSchema,
  KnowledgeListSchema,
  KnowledgeRebuildResultSchema,
  KnowledgeRebuildSchema,
  ReferenceCandidateListSchema,
  RetrievalQuerySchema,
  RetrievalResultSchema,
} from '@youyou/contracts';
import { ApiError } from '../../errors/index.ts';
import { referenceCandidates } from '../../knowledge/index.ts';
import { errorResponses, IdParameter, json, jsonBody } from '../schemas/index.ts';
import type { ServerServices } from '../../services/index.ts';
import { createRouter } from './router.ts';

const tags = ['knowledge'];

const listKnowledge = createRoute({
  method: 'get',
  path: '/projects/{id}/knowledge',
  tags,
  summary: "A project's knowledge: every indexed upload and artifact with its status (spec §4.12)",
  request: { params: IdParameter },
  responses: { 200: json(KnowledgeListSchema), ...errorResponses(404) },
});

const listLooseKnowledge = createRoute({
  method: 'get',
  path: '/knowledge',
  tags,
  summary: 'Knowledge outside any project',
  responses: { 200: json(KnowledgeListSchema), ...errorResponses() },
});

const rebuildKnowledge = createRoute({
  method: 'post',
  path: '/projects/{id}/knowledge/rebuild',
  tags,
  summary: "Re-index a project's knowledge (or only its failed items)",
  request: {
    params: IdParameter,
    body: { required: false, content: { 'application/json': { schema: KnowledgeRebuildSchema } } },
  },
  responses: { 200: json(KnowledgeRebuildResultSchema), ...errorResponses(404) },
});

const getItem = createRoute({
  method: 'get',
  path: '/knowledge/{id}',
  tags,
  summary: 'One knowledge item',
  request: { params: IdParameter },
  responses: { 200: json(KnowledgeItemSchema), ...errorResponses(404) },
});

const retryItem = createRoute({
  method: 'post',
  path: '/knowledge/{id}/retry',
  tags,
  summary: 'Index one item again',
  request: { params: IdParameter },
  responses: { 200: json(KnowledgeItemSchema), ...errorResponses(404) },
});

const searchKnowledge = createRoute({
  method: 'post',
  path: '/knowledge/search',
  tags,
  summary: 'Full-text (and, when configured, hybrid) search with citations',
  request: { body: jsonBody(RetrievalQuerySchema) },
  responses: { 200: json(RetrievalResultSchema), ...errorResponses(404) },
});

const BlockRangeQuery = z.object({
  from: z.coerce.number().int().min(0).optional(),
  to: z.coerce.number().int().min(0).optional(),
  page: z.coerce.number().int().min(1).optional(),
});

const readDocument = createRoute({
  method: 'get',
  path: '/knowledge/read/{id}',
  tags,
  summary: "Blocks of a knowledge item's document (the viewer; a citation's #block-N)",
  request: { params: IdParameter, query: BlockRangeQuery },
  responses: { 200: json(KnowledgeDocumentPageSchema), ...errorResponses(404) },
});

const ReferenceQuery = z.object({
  project_id: z.string().max(128).optional(),
  conversation_id: z.string().max(128).optional(),
  query: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});

const listReferences = createRoute({
  method: 'get',
  path: '/references',
  tags,
  summary: 'Candidates for the composer’s @ picker: files, artifacts, documents, knowledge (spec §4.14)',
  request: { query: ReferenceQuery },
  responses: { 200: json(ReferenceCandidateListSchema), ...errorResponses(404) },
});

/** The knowledge API (spec §4.12, §4.14): list, retry, rebuild, search, read, @ candidates. */
export function knowledgeRoutes(services: ServerServices) {
  const knowledge = (): NonNullable<ServerServices['knowledge']> => {
    if (services.knowledge === undefined)
      throw new ApiError('SERVICE_UNAVAILABLE', 'Knowledge is not running on this server.', {
        retryable: true,
      });
    return services.knowledge;
  };
  return createRouter()
    .openapi(listKnowledge, async (c) => {
      const { id } = c.req.valid('param');
      await services.projects.get(id);
      return c.json(await knowledge().list(id), 200);
    })
    .openapi(listLooseKnowledge, async (c) => c.json(await knowledge().list(null), 200))
    .openapi(rebuildKnowledge, async (c) => {
      const { id } = c.req.valid('param');
      await services.projects.get(id);
      const body = (await c.req.json().catch(() => ({}))) as unknown;
      const parsed = KnowledgeRebuildSchema.safeParse(body ?? {});
      if (!parsed.success) throw new ApiError('INVALID_INPUT', 'only_failed must be true or false.');
      return c.json({ queued: await knowledge().rebuild(id, parsed.data.only_failed === true) }, 200);
    })
    .openapi(getItem, async (c) => c.json(await knowledge().get(c.req.valid('param').id), 200))
    .openapi(retryItem, async (c) => c.json(await knowledge().retry(c.req.valid('param').id), 200))
    .openapi(searchKnowledge, async (c) => {
      const query = c.req.valid('json');
      if (typeof query.project_id === 'string') await services.projects.get(query.project_id);
      return c.json(await knowledge().retriever.search(query), 200);
    })
    .openapi(readDocument, async (c) => {
      const { id } = c.req.valid('param');
      const range = c.req.valid('query');
      const excerpt = await knowledge().read(id, {
        ...(range.from === undefined ? {} : { from: range.from }),
        ...(range.to === undefined ? {} : { to: range.to }),
        ...(range.page === undefined ? {} : { page: range.page }),
      });
      return c.json(excerpt, 200);
    })
    .openapi(listReferences, async (c) => {
      const query = c.req.valid('query');
      const project =
        query.project_id === undefined ? undefined : await services.projects.get(query.project_id);
      const candidates = await referenceCandidates({
        knowledge: knowledge(),
        artifacts: services.artifacts,
        projectId: project?.id ?? null,
        directory: project?.directory ?? null,
        ...(query.conversation_id === undefined ? {} : { conversationId: query.conversation_id }),
        query: query.query ?? '',
        limit: query.limit ?? 30,
      });
      return c.json({ candidates }, 200);
    });
}
