import { createRoute, z } from '@hono/zod-openapi';
import { archiveImportResultSchema } from '@youyou/contracts';
import { bodyLimit } from 'hono/body-limit';
import { ArchiveService, type ArchiveSelection } from '../../archive/index.ts';
import { ApiError } from '../../errors/index.ts';
import { errorResponses, IdParameter, json } from '../schemas/index.ts';
import type { ServerServices } from '../../services/index.ts';
import { createRouter } from './router.ts';

const tags = ['archives'];

const zipResponse = {
  description: 'A zip: manifest.json (checksums), rows, stored objects, Markdown',
  content: { 'application/zip': { schema: z.string().openapi({ format: 'binary' }) } },
};

const exportConversationArchive = createRoute({
  method: 'get',
  path: '/conversations/{id}/archive',
  tags,
  summary: 'A conversation as an archive (message tree with branches, runs and events, artifacts, uploads)',
  request: { params: IdParameter },
  responses: { 200: zipResponse, ...errorResponses(404) },
});

const exportProjectArchive = createRoute({
  method: 'get',
  path: '/projects/{id}/archive',
  tags,
  summary: 'A project, its memories and all its conversations as an archive',
  request: { params: IdParameter },
  responses: { 200: zipResponse, ...errorResponses(404) },
});

const exportEverything = createRoute({
  method: 'get',
  path: '/archive',
  tags,
  summary:
    'Every project, conversation and memory (the user’s too) as one archive (secrets and providers are never exported)',
  responses: { 200: zipResponse, ...errorResponses() },
});

const importArchive = createRoute({
  method: 'post',
  path: '/archive/import',
  tags,
  summary:
    'Import an archive (the zip as the body) with new ids, in one transaction; into project_id when given. A bad or tampered archive is an ARCHIVE_* error and imports nothing',
  request: {
    query: z.object({ project_id: z.string().min(1).optional() }),
    body: {
      content: { 'application/zip': { schema: z.string().openapi({ format: 'binary' }) } },
      required: true,
    },
  },
  responses: {
    201: json(archiveImportResultSchema, 'Imported'),
    ...errorResponses(404, 413, 422),
  },
});

/** Export/import archives (spec §4.16, decision 0018). */
export function archiveRoutes(services: ServerServices) {
  const archives = new ArchiveService({
    database: services.database,
    objects: services.objects,
    version: services.version,
    redact: (text) => services.redact(text),
    onUploadsImported: async (uploadIds) => {
      for (const id of uploadIds) {
        const row = await services.uploads.find(id);
        if (row !== undefined) await services.documents.createForUpload(row);
      }
    },
  });
  const download = async (selection: ArchiveSelection) => {
    const made = await archives.export(selection);
    return new Response(made.bytes, {
      headers: {
        'content-type': 'application/zip',
        'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(made.fileName)}`,
        'content-length': String(made.bytes.byteLength),
      },
    });
  };
  const app = createRouter();
  app.use(
    '/archive/import',
    bodyLimit({
      maxSize: archives.limits.maxTotalBytes,
      onError: () => {
        throw new ApiError(
          'ARCHIVE_TOO_LARGE',
          `Archives are limited to ${archives.limits.maxTotalBytes} bytes.`,
          {
            details: { limit: archives.limits.maxTotalBytes },
          },
        );
      },
    }),
  );
  return app
    .openapi(exportConversationArchive, async (c) =>
      download({ scope: 'conversation', conversation_id: c.req.valid('param').id }),
    )
    .openapi(exportProjectArchive, async (c) =>
      download({ scope: 'project', project_id: c.req.valid('param').id }),
    )
    .openapi(exportEverything, async () => download({ scope: 'everything' }))
    .openapi(importArchive, async (c) => {
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      const projectId = c.req.valid('query').project_id;
      const result = await archives.import(bytes, projectId === undefined ? {} : { project_id: projectId });
      return c.json(result, 201);
    });
}
