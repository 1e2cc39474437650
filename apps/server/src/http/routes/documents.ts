import { createRoute, z } from '@hono/zod-openapi';
import {
  DocumentBlocksPageSchema,
  DocumentListSchema,
  DocumentParsePolicySchema,
  DocumentStatusSchema,
  DocumentUpdateSchema,
  DocumentViewSchema,
  ParserListSchema,
} from '@youyou/contracts';
import { notFound } from '../../errors/index.ts';
import { errorResponses, IdParameter, json, jsonBody } from '../schemas/index.ts';
import type { ServerServices } from '../../services/index.ts';
import { createRouter } from './router.ts';

const tags = ['documents'];
const Index = z.coerce.number().int().min(0).max(10_000_000).optional();

const getDocument = createRoute({
  method: 'get',
  path: '/documents/{id}',
  tags,
  summary: 'A document: its parse status, failure (reason class), metadata and provenance',
  request: { params: IdParameter },
  responses: { 200: json(DocumentViewSchema), ...errorResponses(404) },
});

const updateDocument = createRoute({
  method: 'patch',
  path: '/documents/{id}',
  tags,
  summary:
    "Keep an uploaded document to its conversation, or put it in its project's knowledge (`knowledge_scope`)",
  request: { params: IdParameter, body: jsonBody(DocumentUpdateSchema) },
  responses: { 200: json(DocumentViewSchema), ...errorResponses(404) },
});

const getBlocks = createRoute({
  method: 'get',
  path: '/documents/{id}/blocks',
  tags,
  summary:
    'Blocks of a parsed document: `from` (inclusive) to `to` (exclusive, at most 500), or one page / slide',
  request: {
    params: IdParameter,
    query: z.object({
      from: Index,
      to: Index,
      page: z.coerce.number().int().min(1).optional(),
      slide: z.coerce.number().int().min(1).optional(),
    }),
  },
  responses: { 200: json(DocumentBlocksPageSchema), ...errorResponses(404, 409) },
});

const retryDocument = createRoute({
  method: 'post',
  path: '/documents/{id}/retry',
  tags,
  summary: 'Parse a document again (after a failure, or after the policy changed)',
  request: { params: IdParameter },
  responses: { 202: json(DocumentViewSchema, 'Queued'), ...errorResponses(404, 409) },
});

const StatusQuery = z.object({ status: DocumentStatusSchema.optional() });

const conversationDocuments = createRoute({
  method: 'get',
  path: '/conversations/{id}/documents',
  tags,
  summary: "The conversation's documents, newest first",
  request: { params: IdParameter, query: StatusQuery },
  responses: { 200: json(DocumentListSchema), ...errorResponses(404) },
});

const projectDocuments = createRoute({
  method: 'get',
  path: '/projects/{id}/documents',
  tags,
  summary: "The project's documents, newest first",
  request: { params: IdParameter, query: StatusQuery },
  responses: { 200: json(DocumentListSchema), ...errorResponses(404) },
});

const uploadDocument = createRoute({
  method: 'get',
  path: '/uploads/{id}/document',
  tags,
  summary: 'The document parsed from an upload (404 for images and formats no parser reads)',
  request: { params: IdParameter },
  responses: { 200: json(DocumentViewSchema), ...errorResponses(404) },
});

const getPolicy = createRoute({
  method: 'get',
  path: '/projects/{id}/parse-policy',
  tags,
  summary:
    "The project's parse policy: per format the parser chain and cross-validation, the external service, caps",
  request: { params: IdParameter },
  responses: { 200: json(DocumentParsePolicySchema), ...errorResponses(404) },
});

const putPolicy = createRoute({
  method: 'put',
  path: '/projects/{id}/parse-policy',
  tags,
  summary: "Replace the project's parse policy (applies to documents parsed from now on; retry to re-parse)",
  request: { params: IdParameter, body: jsonBody(DocumentParsePolicySchema) },
  responses: { 200: json(DocumentParsePolicySchema), ...errorResponses(404) },
});

const listParsers = createRoute({
  method: 'get',
  path: '/parsers',
  tags,
  summary: 'Registered parsers with their source tags, and whether the external service is set for a project',
  request: { query: z.object({ project_id: z.string().max(128).optional() }) },
  responses: { 200: json(ParserListSchema), ...errorResponses(404) },
});

/** Documents (spec §4.11): parse status, blocks, retry, and the per-project parse policy. */
export function documentRoutes(services: ServerServices) {
  const { documents, conversations, projects, uploads } = services;
  return createRouter()
    .openapi(getDocument, async (c) => c.json(await documents.require(c.req.valid('param').id), 200))
    .openapi(updateDocument, async (c) =>
      c.json(
        await documents.setKnowledgeScope(c.req.valid('param').id, c.req.valid('json').knowledge_scope),
        200,
      ),
    )
    .openapi(getBlocks, async (c) => {
      const { id } = c.req.valid('param');
      const query = c.req.valid('query');
      const range = Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined));
      return c.json(await documents.blockPage(id, range), 200);
    })
    .openapi(retryDocument, async (c) => c.json(await documents.retry(c.req.valid('param').id), 202))
    .openapi(conversationDocuments, async (c) => {
      const { id } = c.req.valid('param');
      await conversations.get(id);
      const { status } = c.req.valid('query');
      return c.json(
        {
          documents: await documents.list({
            conversationId: id,
            ...(status === undefined ? {} : { status }),
          }),
        },
        200,
      );
    })
    .openapi(projectDocuments, async (c) => {
      const { id } = c.req.valid('param');
      await projects.get(id);
      const { status } = c.req.valid('query');
      return c.json(
        { documents: await documents.list({ projectId: id, ...(status === undefined ? {} : { status }) }) },
        200,
      );
    })
    .openapi(uploadDocument, async (c) => {
      const { id } = c.req.valid('param');
      await uploads.get(id);
      const document = await documents.ofUpload(id);
      if (document === undefined) throw notFound('document of upload', id);
      return c.json(document, 200);
    })
    .openapi(getPolicy, async (c) => {
      const { id } = c.req.valid('param');
      await projects.get(id);
      return c.json(await documents.policy(id), 200);
    })
    .openapi(putPolicy, async (c) => {
      const { id } = c.req.valid('param');
      await projects.get(id);
      return c.json(await documents.setPolicy(id, c.req.valid('json')), 200);
    })
    .openapi(listParsers, async (c) => {
      const { project_id: projectId } = c.req.valid('query');
      if (projectId !== undefined) await projects.get(projectId);
      const policy = projectId === undefined ? undefined : await documents.policy(projectId);
      return c.json({ parsers: documents.registry.list(policy) }, 200);
    });
}
