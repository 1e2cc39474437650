import { createRoute, z } from '@hono/zod-openapi';
import { ArtifactDiffSchema, ArtifactSchema, ArtifactVersionSchema } from '@youyou/contracts';
import { ApiError } from '../../errors/index.ts';
import { errorResponses, IdParameter, json } from '../schemas/index.ts';
import type { ServerServices } from '../../services/index.ts';
import { createRouter } from './router.ts';

const tags = ['artifacts'];

/**
 * The policy of a sandboxed artifact page (html, svg, docx): an opaque origin (`sandbox` without
 * `allow-same-origin`, so no cookie, no storage, no same-origin API), its own inline scripts and
 * styles only, nothing fetched, framed only by our own pages.
 */
export const ARTIFACT_SANDBOX_CSP =
  "sandbox allow-scripts; default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; " +
  "img-src data: blob:; font-src data:; media-src data: blob:; connect-src 'none'; form-action 'none'; " +
  "base-uri 'none'; frame-ancestors 'self'";

/** Inline PDFs and images for the browser's own viewer: nothing runs, framed only by our pages. */
const INLINE_VIEW_CSP = "default-src 'none'; img-src 'self' data:; object-src 'self'; frame-ancestors 'self'";
const INLINE_TYPES = /^(application\/pdf|image\/(png|jpeg|gif|webp))$/;

const ArtifactListSchema = z.object({ artifacts: z.array(ArtifactSchema) });
const ArtifactDetailSchema = z.object({ artifact: ArtifactSchema, versions: z.array(ArtifactVersionSchema) });
const VersionParameters = IdParameter.extend({
  version: z.coerce
    .number()
    .int()
    .min(1)
    .openapi({ param: { name: 'version', in: 'path' } }),
});
const VersionQuery = z.object({ version: z.coerce.number().int().min(1).optional() });

const listOfConversation = createRoute({
  method: 'get',
  path: '/conversations/{id}/artifacts',
  tags,
  summary: 'The artifacts and uploads of a conversation, newest first',
  request: { params: IdParameter },
  responses: { 200: json(ArtifactListSchema), ...errorResponses(404) },
});

const listOfProject = createRoute({
  method: 'get',
  path: '/projects/{id}/artifacts',
  tags,
  summary: 'The artifacts and uploads of every conversation of a project',
  request: { params: IdParameter },
  responses: { 200: json(ArtifactListSchema), ...errorResponses(404) },
});

const resolveReference = createRoute({
  method: 'get',
  path: '/conversations/{id}/artifacts/resolve',
  tags,
  summary: 'What `@artifact:<reference>` (an id or an exact title) names in a conversation',
  request: { params: IdParameter, query: z.object({ reference: z.string().min(1).max(500) }) },
  responses: { 200: json(ArtifactSchema), ...errorResponses(404) },
});

const getArtifact = createRoute({
  method: 'get',
  path: '/artifacts/{id}',
  tags,
  summary: 'An artifact (or upload) and its versions, without their text',
  request: { params: IdParameter },
  responses: { 200: json(ArtifactDetailSchema), ...errorResponses(404) },
});

const getVersion = createRoute({
  method: 'get',
  path: '/artifacts/{id}/versions/{version}',
  tags,
  summary: 'One version with its text',
  request: { params: VersionParameters },
  responses: { 200: json(ArtifactVersionSchema), ...errorResponses(404) },
});

const diffVersions = createRoute({
  method: 'get',
  path: '/artifacts/{id}/diff',
  tags,
  summary:
    'The line diff between two versions (numbers or version ids) of one artifact; a version of another artifact is ARTIFACT_VERSION_MISMATCH',
  request: {
    params: IdParameter,
    query: z.object({ from: z.string().min(1).max(128), to: z.string().min(1).max(128) }),
  },
  responses: { 200: json(ArtifactDiffSchema), ...errorResponses(404) },
});

const download = createRoute({
  method: 'get',
  path: '/artifacts/{id}/download',
  tags,
  summary: 'The newest (or a given) version as a file',
  request: { params: IdParameter, query: VersionQuery },
  responses: {
    200: {
      description: 'The file',
      content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } },
    },
    ...errorResponses(404),
  },
});

const render = createRoute({
  method: 'get',
  path: '/artifacts/{id}/render',
  tags,
  summary:
    'An html, svg or docx artifact as a sandboxed page for an iframe (opaque origin, no network, its own CSP)',
  request: { params: IdParameter, query: VersionQuery },
  responses: {
    200: { description: 'The page', content: { 'text/html': { schema: z.string() } } },
    ...errorResponses(404, 415),
  },
});

const view = createRoute({
  method: 'get',
  path: '/artifacts/{id}/view',
  tags,
  summary: 'An uploaded PDF or image inline, for the browser’s own viewer',
  request: { params: IdParameter },
  responses: {
    200: { description: 'The file', content: { 'application/pdf': { schema: z.string() } } },
    ...errorResponses(404, 415),
  },
});

const deleteArtifact = createRoute({
  method: 'delete',
  path: '/artifacts/{id}',
  tags,
  summary: 'Delete an artifact with every version (or an upload)',
  request: { params: IdParameter },
  responses: { 204: { description: 'Deleted' }, ...errorResponses(404) },
});

function sandboxPage(body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><style>html,body{margin:0;background:#fff}svg{max-width:100%;height:auto}</style></head><body>${body}</body></html>`;
}

function attachmentName(name: string): string {
  return `attachment; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Artifacts (spec §4.3): lists, versions, diffs, downloads, sandboxed rendering, delete. */
export function artifactRoutes(services: ServerServices) {
  const { artifacts, objects, conversations, projects } = services;
  return createRouter()
    .openapi(listOfConversation, async (c) => {
      const { id } = c.req.valid('param');
      await conversations.get(id);
      return c.json({ artifacts: await artifacts.list({ conversationId: id }) }, 200);
    })
    .openapi(listOfProject, async (c) => {
      const { id } = c.req.valid('param');
      await projects.get(id);
      return c.json({ artifacts: await artifacts.list({ projectId: id }) }, 200);
    })
    .openapi(resolveReference, async (c) => {
      const { id } = c.req.valid('param');
      await conversations.get(id);
      return c.json(await artifacts.resolve(id, c.req.valid('query').reference), 200);
    })
    .openapi(getArtifact, async (c) => {
      const { id } = c.req.valid('param');
      return c.json({ artifact: await artifacts.get(id), versions: await artifacts.versions(id) }, 200);
    })
    .openapi(getVersion, async (c) => {
      const { id, version } = c.req.valid('param');
      return c.json(await artifacts.version(id, version), 200);
    })
    .openapi(diffVersions, async (c) => {
      const { id } = c.req.valid('param');
      const { from, to } = c.req.valid('query');
      return c.json(await artifacts.diff(id, from, to), 200);
    })
    .openapi(download, async (c) => {
      const { id } = c.req.valid('param');
      const file = await artifacts.download(id, c.req.valid('query').version);
      const bytes =
        file.kind === 'text' ? new TextEncoder().encode(file.content) : await objects.read(file.storagePath);
      const textual = file.mediaType.startsWith('text/') || file.mediaType === 'application/json';
      return new Response(new Uint8Array(bytes), {
        status: 200,
        headers: {
          'content-type': textual ? `${file.mediaType}; charset=utf-8` : file.mediaType,
          'content-disposition': attachmentName(file.name),
          'content-length': String(bytes.byteLength),
        },
      });
    })
    .openapi(render, async (c) => {
      const { id } = c.req.valid('param');
      const artifact = await artifacts.get(id);
      const file = await artifacts.download(id, c.req.valid('query').version);
      let page: string;
      if (file.kind === 'text' && artifact.kind === 'html') page = file.content;
      else if (file.kind === 'text' && artifact.kind === 'svg') page = sandboxPage(file.content);
      else if (file.kind === 'upload' && /officedocument\.wordprocessingml/.test(file.mediaType)) {
        const mammoth = await import('mammoth');
        const converted = await mammoth.convertToHtml({
          buffer: Buffer.from(await objects.read(file.storagePath)),
        });
        page = sandboxPage(
          `<article style="font:15px/1.6 system-ui,sans-serif;padding:16px 24px;max-width:52rem">${converted.value}</article>`,
        );
      } else {
        throw new ApiError(
          'UNSUPPORTED_MEDIA_TYPE',
          `A ${artifact.kind} artifact is not rendered as a page.`,
          {
            details: { artifact_id: id, kind: artifact.kind, media_type: artifact.media_type },
          },
        );
      }
      return new Response(page, {
        status: 200,
        headers: {
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': ARTIFACT_SANDBOX_CSP,
          'x-frame-options': 'SAMEORIGIN',
        },
      });
    })
    .openapi(view, async (c) => {
      const { id } = c.req.valid('param');
      const file = await artifacts.download(id);
      if (file.kind !== 'upload' || !INLINE_TYPES.test(file.mediaType)) {
        throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Only uploaded PDFs and images are shown inline.', {
          details: { artifact_id: id, media_type: file.mediaType },
        });
      }
      const bytes = await objects.read(file.storagePath);
      return new Response(new Uint8Array(bytes), {
        status: 200,
        headers: {
          'content-type': file.mediaType,
          'content-disposition': `inline; filename*=UTF-8''${encodeURIComponent(file.name)}`,
          'content-security-policy': INLINE_VIEW_CSP,
          'x-frame-options': 'SAMEORIGIN',
        },
      });
    })
    .openapi(deleteArtifact, async (c) => {
      const { id } = c.req.valid('param');
      const { upload } = await artifacts.delete(id);
      if (upload !== undefined) await services.knowledge?.forget('upload', upload.id);
      if (upload !== undefined) await objects.delete(upload.storage_path);
      return c.body(null, 204);
    });
}
