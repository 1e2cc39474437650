import { createRoute, z } from '@hono/zod-openapi';
import {
  archiveImportPreviewSchema,
  archiveImportResultSchema,
  type ArchiveImportOptions,
} from '@youyou/contracts';
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

const importQuery = z.object({
  project_id: z.string().min(1).optional(),
  on_name_conflict: z.enum(['copy', 'refuse']).optional(),
});
const zipBody = {
  content: { 'application/zip': { schema: z.string().openapi({ format: 'binary' }) } },
  required: true,
};

const importArchive = createRoute({
  method: 'post',
  path: '/archive/import',
  tags,
  summary:
    'Import an archive (the zip as the body) with new ids, in one transaction; into project_id when given. A bad or tampered archive is an ARCHIVE_* error and imports nothing',
  request: {
    query: importQuery,
    body: zipBody,
  },
  responses: {
    201: json(archiveImportResultSchema, 'Imported'),
    ...errorResponses(404, 409, 413, 422),
  },
});

const previewImport = createRoute({
  method: 'post',
  path: '/archive/import/preview',
  tags,
  summary:
    'What importing the archive (the zip as the body) would create — the projects with the name each gets (a taken name comes in as a copy), the conversations, the memories — checked as the import checks it, writing nothing',
  request: { query: importQuery, body: zipBody },
  responses: {
    200: json(archiveImportPreviewSchema, 'What the import would create'),
    ...errorResponses(404, 413, 422),
  },
});

/** The query's options without the absent ones (exact optional properties). */
function importOptions(query: z.infer<typeof importQuery>): ArchiveImportOptions {
  return {
    ...(query.project_id === undefined ? {} : { project_id: query.project_id }),
    ...(query.on_name_conflict === undefined ? {} : { on_name_conflict: query.on_name_conflict }),
  };
}

/** Export/import archives (spec §4.16, decisions 0018, 0048). */
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
  const limit = bodyLimit({
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
  });
  app.use('/archive/import', limit);
  app.use('/archive/import/preview', limit);
  return app
    .openapi(exportConversationArchive, async (c) =>
      download({ scope: 'conversation', conversation_id: c.req.valid('param').id }),
    )
    .openapi(exportProjectArchive, async (c) =>
      download({ scope: 'project', project_id: c.req.valid('param').id }),
    )
    .openapi(exportEverything, async () => download({ scope: 'everything' }))
    .openapi(previewImport, async (c) => {
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      return c.json(await archives.preview(bytes, importOptions(c.req.valid('query'))), 200);
    })
    .openapi(importArchive, async (c) => {
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      const result = await archives.import(bytes, importOptions(c.req.valid('query')));
      return c.json(result, 201);
    });
}
