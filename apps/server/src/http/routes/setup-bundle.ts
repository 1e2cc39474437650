import { createRoute } from '@hono/zod-openapi';
import { SetupBundleSchema, SetupImportPlanSchema } from '@youyou/contracts';
import { resolveProjectDirectory } from '../../security/index.ts';
import {
  exportSetupBundle,
  importSetupBundle,
  previewSetupBundle,
  type SetupBundleSources,
} from '../../setup-bundle/index.ts';
import type { ServerServices } from '../../services/index.ts';
import { errorResponses, json, jsonBody } from '../schemas/index.ts';
import { createRouter } from './router.ts';

const tags = ['setup-bundle'];

const exportBundle = createRoute({
  method: 'get',
  path: '/setup-bundle',
  tags,
  summary:
    "The user's whole setup in one file to move to another workbench: user settings (config.yaml values included), profiles, macros, snippets, memories, MCP servers, extensions and projects — never a secret",
  responses: { 200: json(SetupBundleSchema), ...errorResponses() },
});

const previewBundle = createRoute({
  method: 'post',
  path: '/setup-bundle/preview',
  tags,
  summary:
    'What importing a setup bundle would do, item by item (create, overwrite or skip, and why); writes nothing',
  request: { body: jsonBody(SetupBundleSchema) },
  responses: { 200: json(SetupImportPlanSchema), ...errorResponses(400) },
});

const importBundle = createRoute({
  method: 'post',
  path: '/setup-bundle/import',
  tags,
  summary: 'Imports a setup bundle as its preview says, and reports what it did',
  request: { body: jsonBody(SetupBundleSchema) },
  responses: { 200: json(SetupImportPlanSchema), ...errorResponses(400) },
});

/** The setup bundle (spec §4.16): export, preview, import. */
export function setupBundleRoutes(services: ServerServices) {
  const sources: SetupBundleSources = {
    settings: services.settingsService,
    profiles: services.profiles,
    library: services.library,
    memory: services.memory,
    mcpServers: services.mcp.repository,
    extensions: services.extensions,
    projects: services.projects,
    checkDirectory: (directory) =>
      resolveProjectDirectory(directory, {
        roots: services.config.workspaceRoots,
        dataDirectory: services.config.dataDirectory,
      }),
    forgetMcpServer: (id) => services.mcp.forget(id),
  };
  return createRouter()
    .openapi(exportBundle, async (c) => c.json(await exportSetupBundle(sources), 200))
    .openapi(previewBundle, async (c) => c.json(await previewSetupBundle(sources, c.req.valid('json')), 200))
    .openapi(importBundle, async (c) => c.json(await importSetupBundle(sources, c.req.valid('json')), 200));
}
