import { createHash, randomUUID } from 'node:crypto';
import { createRoute, z } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { KnowledgeScopeSchema } from '@youyou/contracts';
import { ApiError } from '../../errors/index.ts';
import { checkUploadName, checkUploadType } from '../../security/index.ts';
import { uploadViewOfRow } from '../../storage/index.ts';
import { refuseNul } from '../middleware/nul-characters.ts';
import { errorResponses, IdParameter, json, UploadSchema } from '../schemas/index.ts';
import type { ServerServices } from '../../services/index.ts';
import { createRouter } from './router.ts';

const tags = ['uploads'];

const createUpload = createRoute({
  method: 'post',
  path: '/uploads',
  tags,
  summary: 'Upload a file (multipart field `file`): images, text, JSON, PDF, Office documents',
  request: {
    body: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: z.object({
            // A File: zod has no schema for one in a form body; the handler checks it.
            file: z.any().openapi({ type: 'string', format: 'binary' }),
            conversation_id: z.string().max(128).optional(),
            project_id: z.string().max(128).optional(),
            /** `conversation` keeps a document out of its project's knowledge (default `project`). */
            knowledge_scope: KnowledgeScopeSchema.optional(),
          }),
        },
      },
    },
  },
  responses: { 201: json(UploadSchema, 'Stored'), ...errorResponses(404, 413, 415) },
});

const getUpload = createRoute({
  method: 'get',
  path: '/uploads/{id}',
  tags,
  summary: 'An upload’s metadata',
  request: { params: IdParameter },
  responses: { 200: json(UploadSchema), ...errorResponses(404) },
});

const getUploadContent = createRoute({
  method: 'get',
  path: '/uploads/{id}/content',
  tags,
  summary: 'An upload’s bytes (always as an attachment)',
  request: { params: IdParameter },
  responses: {
    200: {
      description: 'The file',
      content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } },
    },
    ...errorResponses(404),
  },
});

const deleteUpload = createRoute({
  method: 'delete',
  path: '/uploads/{id}',
  tags,
  summary: 'Delete an upload',
  request: { params: IdParameter },
  responses: { 204: { description: 'Deleted' }, ...errorResponses(404) },
});

/** Uploads: stored by id in the object store, names only ever shown. */
export function uploadRoutes(services: ServerServices) {
  const { uploads, objects, config } = services;
  const app = createRouter();
  // Multipart framing adds a little to the file itself.
  app.use(
    '/uploads',
    bodyLimit({
      maxSize: config.maxUploadBytes + 64 * 1024,
      onError: () => {
        throw new ApiError('PAYLOAD_TOO_LARGE', `Uploads are limited to ${config.maxUploadBytes} bytes.`, {
          details: { limit: config.maxUploadBytes },
        });
      },
    }),
  );
  return app
    .openapi(createUpload, async (c) => {
      const form = c.req.valid('form');
      const file: unknown = form.file;
      if (!(file instanceof File))
        throw new ApiError('INVALID_INPUT', 'Send the file in the multipart field `file`.');
      refuseNul(file.name, 'the file name');
      refuseNul(form.conversation_id, "form field 'conversation_id'");
      refuseNul(form.project_id, "form field 'project_id'");
      const name = checkUploadName(file.name);
      if (file.size > config.maxUploadBytes) {
        throw new ApiError('FILE_TOO_LARGE', `Uploads are limited to ${config.maxUploadBytes} bytes.`, {
          details: { limit: config.maxUploadBytes, size: file.size },
        });
      }
      const bytes = new Uint8Array(await file.arrayBuffer());
      const mediaType = checkUploadType(file.type, bytes);
      if (form.conversation_id !== undefined) await services.conversations.get(form.conversation_id);
      if (form.project_id !== undefined) await services.projects.get(form.project_id);
      const id = randomUUID();
      const storagePath = await objects.put('uploads', id, bytes);
      const row = {
        id,
        owner: null,
        project_id: form.project_id ?? null,
        conversation_id: form.conversation_id ?? null,
        name,
        media_type: mediaType,
        size: bytes.byteLength,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        storage_path: storagePath,
        created_at: Date.now(),
      };
      await uploads.insert(row);
      // Parsed in the background; progress goes out as document.status events.
      await services.documents.createForUpload(row, form.knowledge_scope ?? 'project');
      return c.json(uploadViewOfRow(row), 201);
    })
    .openapi(getUpload, async (c) => c.json(uploadViewOfRow(await uploads.get(c.req.valid('param').id)), 200))
    .openapi(getUploadContent, async (c) => {
      const row = await uploads.get(c.req.valid('param').id);
      const bytes = await objects.read(row.storage_path);
      return new Response(new Uint8Array(bytes), {
        status: 200,
        headers: {
          'content-type': row.media_type.startsWith('text/')
            ? `${row.media_type}; charset=utf-8`
            : row.media_type,
          'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(row.name)}`,
          'content-length': String(bytes.byteLength),
        },
      });
    })
    .openapi(deleteUpload, async (c) => {
      const row = await uploads.get(c.req.valid('param').id);
      await uploads.delete(row.id);
      await objects.delete(row.storage_path);
      await services.knowledge?.forget('upload', row.id);
      return c.body(null, 204);
    });
}
