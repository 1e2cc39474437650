import { createRoute, z } from '@hono/zod-openapi';
import {
  ExtensionInstallRequestSchema,
  ExtensionListSchema,
  ExtensionPatchSchema,
  ExtensionPreviewRequestSchema,
  ExtensionPreviewSchema,
  ExtensionUiListSchema,
  InstalledExtensionSchema,
  RegistryListSchema,
  RegistrySourceSchema,
  RegistrySourceSwitchSchema,
  type ExtensionManifest,
} from '@youyou/contracts';
import { bodyLimit } from 'hono/body-limit';
import { ApiError } from '../../errors/index.ts';
import { PACKAGE_LIMITS, registryList } from '../../extensions/index.ts';

const PACKAGE_LIMITS_BYTES = PACKAGE_LIMITS.maxBytes;
import { errorResponses, json, jsonBody } from '../schemas/index.ts';
import type { ServerServices } from '../../services/index.ts';
import { createRouter } from './router.ts';

const tags = ['extensions'];

/**
 * The preview for the OpenAPI document: the manifest's settings hold JSON Schemas (recursive), so
 * the document names it an object and points at the published `extension.schema.json`.
 */
const PreviewResponseSchema = ExtensionPreviewSchema.extend({
  manifest: z
    .custom<ExtensionManifest>((value) => typeof value === 'object' && value !== null)
    .openapi({
      type: 'object',
      description: 'extension.json as parsed (see @youyou/contracts/schemas/extension.schema.json)',
    })
    .nullable(),
});
const ExtensionIdParameter = z.object({ id: z.string().min(1).max(64) });

const listExtensions = createRoute({
  method: 'get',
  path: '/extensions',
  tags,
  summary:
    'Installed extensions: state, recorded permissions, what each provides, problems of the last reload',
  responses: { 200: json(ExtensionListSchema), ...errorResponses() },
});

const previewPath = createRoute({
  method: 'post',
  path: '/extensions/preview',
  tags,
  summary:
    'Stage an extension from a folder or .zip/.tgz on this machine and list its permissions and every problem; nothing is installed',
  request: { body: jsonBody(ExtensionPreviewRequestSchema) },
  responses: { 200: json(PreviewResponseSchema), ...errorResponses() },
});

const previewUpload = createRoute({
  method: 'post',
  path: '/extensions/upload',
  tags,
  summary: 'Stage an uploaded .zip or .tgz (multipart field `file`) and preview it; nothing is installed',
  request: {
    body: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: z.object({ file: z.any().openapi({ type: 'string', format: 'binary' }) }),
        },
      },
    },
  },
  responses: { 200: json(PreviewResponseSchema), ...errorResponses(413) },
});

const installExtension = createRoute({
  method: 'post',
  path: '/extensions',
  tags,
  summary:
    'Install a staged extension; `accepted_permissions` must equal what it asks for. Fail-closed: any problem installs nothing',
  request: { body: jsonBody(ExtensionInstallRequestSchema) },
  responses: { 201: json(InstalledExtensionSchema, 'Installed'), ...errorResponses(404, 409, 422) },
});

const getExtension = createRoute({
  method: 'get',
  path: '/extensions/{id}',
  tags,
  summary: 'One installed extension',
  request: { params: ExtensionIdParameter },
  responses: { 200: json(InstalledExtensionSchema), ...errorResponses(404) },
});

const patchExtension = createRoute({
  method: 'patch',
  path: '/extensions/{id}',
  tags,
  summary: 'Enable or disable an extension (disabled: everything it provides is unregistered)',
  request: { params: ExtensionIdParameter, body: jsonBody(ExtensionPatchSchema) },
  responses: { 200: json(InstalledExtensionSchema), ...errorResponses(404) },
});

const deleteExtension = createRoute({
  method: 'delete',
  path: '/extensions/{id}',
  tags,
  summary:
    'Uninstall: unregister everything it provided and delete its files (a run still using one of its tools gets EXTENSION_REMOVED)',
  request: { params: ExtensionIdParameter },
  responses: { 204: { description: 'Uninstalled' }, ...errorResponses(404) },
});

const reloadExtension = createRoute({
  method: 'post',
  path: '/extensions/{id}/reload',
  tags,
  summary:
    'Read the extension’s files again now (they also reload on change); a bad edit keeps the last good version',
  request: { params: ExtensionIdParameter },
  responses: { 200: json(InstalledExtensionSchema), ...errorResponses(404) },
});

const uiEntries = createRoute({
  method: 'get',
  path: '/extensions/ui',
  tags,
  summary: 'Panels, cards and forms of the enabled extensions, in the UI-schema vocabulary',
  responses: { 200: json(ExtensionUiListSchema), ...errorResponses() },
});

const listRegistry = createRoute({
  method: 'get',
  path: '/registry',
  tags,
  summary: 'The unified registry: every capability with its source tag and whether it is active',
  responses: { 200: json(RegistryListSchema), ...errorResponses() },
});

const switchSource = createRoute({
  method: 'put',
  path: '/registry/sources/{source}',
  tags,
  summary: 'Switch everything one source provides on or off (`builtin`, `user`, `profile`, `extension:<id>`)',
  request: { params: z.object({ source: RegistrySourceSchema }), body: jsonBody(RegistrySourceSwitchSchema) },
  responses: { 200: json(RegistryListSchema), ...errorResponses(404) },
});

/** Extensions (spec §4.6) and the unified registry (spec §4.1 rule 4). */
export function extensionRoutes(services: ServerServices) {
  const { extensions, catalog, settingsService } = services;
  const registry = () =>
    registryList({
      host: extensions,
      catalog,
      settingsRegistry: settingsService.registry,
      parsers: services.documents.registry,
    });
  const app = createRouter();
  app.use(
    '/extensions/upload',
    bodyLimit({
      maxSize: PACKAGE_LIMITS_BYTES + 64 * 1024,
      onError: () => {
        throw new ApiError(
          'PAYLOAD_TOO_LARGE',
          `Extension archives are limited to ${PACKAGE_LIMITS_BYTES} bytes.`,
          {
            details: { limit: PACKAGE_LIMITS_BYTES },
          },
        );
      },
    }),
  );
  return app
    .openapi(listExtensions, (c) => c.json({ extensions: extensions.list() }, 200))
    .openapi(uiEntries, (c) => c.json({ entries: extensions.uiEntries() }, 200))
    .openapi(previewPath, async (c) => c.json(await extensions.preview(c.req.valid('json').path), 200))
    .openapi(previewUpload, async (c) => {
      const file: unknown = c.req.valid('form').file;
      if (!(file instanceof File))
        throw new ApiError('INVALID_INPUT', 'Send the archive in the multipart field `file`.');
      return c.json(
        await extensions.previewArchive(file.name, new Uint8Array(await file.arrayBuffer())),
        200,
      );
    })
    .openapi(installExtension, async (c) => c.json(await extensions.install(c.req.valid('json')), 201))
    .openapi(getExtension, (c) => c.json(extensions.get(c.req.valid('param').id), 200))
    .openapi(patchExtension, async (c) =>
      c.json(await extensions.setEnabled(c.req.valid('param').id, c.req.valid('json').enabled), 200),
    )
    .openapi(deleteExtension, async (c) => {
      await extensions.uninstall(c.req.valid('param').id);
      return c.body(null, 204);
    })
    .openapi(reloadExtension, async (c) => c.json(await extensions.reload(c.req.valid('param').id), 200))
    .openapi(listRegistry, async (c) => c.json(await registry(), 200))
    .openapi(switchSource, async (c) => {
      await extensions.setSourceEnabled(c.req.valid('param').source, c.req.valid('json').enabled);
      return c.json(await registry(), 200);
    });
}
