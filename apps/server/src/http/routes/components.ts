import {
  ComponentStore,
  type ComponentChanges,
  type ComponentDocument,
  type ComponentDraft,
} from '@youyou/agent/files';
import { createRoute, z } from '@hono/zod-openapi';
import { ApiError } from '../../errors/index.ts';
import {
  ComponentCreateSchema,
  ComponentDocumentSchema,
  ComponentListSchema,
  ComponentLocationQuery,
  ComponentPathParameters,
  ComponentUpdateSchema,
  errorResponses,
  json,
  jsonBody,
  OptionalLocationQuery,
  PluginEnabledSchema,
  PluginToggleSchema,
} from '../schemas/index.ts';
import type { ServerServices } from '../../services/index.ts';
import { createRouter } from './router.ts';

const tags = ['components'];

const listComponents = createRoute({
  method: 'get',
  path: '/components',
  tags,
  summary: 'Tools, skills and plugins of the global layer and (with project_id) the project layer',
  request: { query: z.object({ project_id: z.string().optional() }) },
  responses: { 200: json(ComponentListSchema), ...errorResponses(404) },
});

const readComponent = createRoute({
  method: 'get',
  path: '/components/{kind}/{name}',
  tags,
  summary: 'A component folder’s entry and files',
  request: { params: ComponentPathParameters, query: ComponentLocationQuery },
  responses: { 200: json(ComponentDocumentSchema), ...errorResponses(404) },
});

const createComponent = createRoute({
  method: 'post',
  path: '/components',
  tags,
  summary: 'Create a component folder (checked before anything is written)',
  request: { body: jsonBody(ComponentCreateSchema), query: z.object({ project_id: z.string().optional() }) },
  responses: { 201: json(ComponentDocumentSchema, 'Created'), ...errorResponses(404, 409) },
});

const updateComponent = createRoute({
  method: 'patch',
  path: '/components/{kind}/{name}',
  tags,
  summary: 'Edit a component; the next session sees the change',
  request: {
    params: ComponentPathParameters,
    query: OptionalLocationQuery,
    body: jsonBody(ComponentUpdateSchema),
  },
  responses: { 200: json(ComponentDocumentSchema), ...errorResponses(404) },
});

const deleteComponent = createRoute({
  method: 'delete',
  path: '/components/{kind}/{name}',
  tags,
  summary: 'Delete a component folder',
  request: { params: ComponentPathParameters, query: ComponentLocationQuery },
  responses: { 204: { description: 'Deleted' }, ...errorResponses(404) },
});

const togglePlugin = createRoute({
  method: 'post',
  path: '/components/plugin/{name}/toggle',
  tags,
  summary: 'Turn a file plugin on or off (null clears the toggle)',
  request: {
    params: z.object({
      name: z
        .string()
        .min(1)
        .max(64)
        .openapi({ param: { name: 'name', in: 'path' } }),
    }),
    body: jsonBody(PluginToggleSchema),
  },
  responses: { 204: { description: 'Done' }, ...errorResponses(404) },
});

const setPluginEnabled = createRoute({
  method: 'put',
  path: '/components/plugin/{name}/enabled',
  tags,
  summary:
    'Turn a file plugin on or off (null clears the toggle); project_id in the query for the project scope',
  request: {
    params: z.object({
      name: z
        .string()
        .min(1)
        .max(64)
        .openapi({ param: { name: 'name', in: 'path' } }),
    }),
    query: z.object({ project_id: z.string().optional() }),
    body: jsonBody(PluginEnabledSchema),
  },
  responses: { 204: { description: 'Done' }, ...errorResponses(404) },
});

/** The component manager over the agent's API (spec §9): global or project layer. */
export function componentRoutes(services: ServerServices) {
  const { config } = services;
  const store = async (
    projectId: string | undefined,
    layer?: 'global' | 'project',
  ): Promise<ComponentStore> => {
    if (projectId === undefined) {
      if (layer === 'project') throw new ApiError('INVALID_INPUT', 'The project layer needs a project_id.');
      return new ComponentStore({ cwd: config.home, home: config.home });
    }
    const project = await services.projects.get(projectId);
    if (project.directory === null) {
      if (layer === 'project')
        throw new ApiError('INVALID_INPUT', 'This project has no directory, so no project layer.');
      return new ComponentStore({ cwd: config.home, home: config.home });
    }
    return new ComponentStore({ cwd: project.directory, home: config.home });
  };

  return createRouter()
    .openapi(listComponents, async (c) => {
      const listing = await (await store(c.req.valid('query').project_id)).list();
      return c.json(listing, 200);
    })
    .openapi(readComponent, async (c) => {
      const { kind, name } = c.req.valid('param');
      const { layer, project_id: projectId } = c.req.valid('query');
      const document = await (await store(projectId, layer)).read(kind, name, layer);
      return c.json(documentView(document), 200);
    })
    .openapi(createComponent, async (c) => {
      const body = c.req.valid('json');
      const frontMatter = body.front_matter ?? body.frontMatter;
      const entryFile = body.entry_file ?? body.entryFile;
      const draft: ComponentDraft = {
        kind: body.kind,
        name: body.name,
        layer: body.layer,
        ...(frontMatter === undefined ? {} : { frontMatter }),
        ...(body.body === undefined ? {} : { body: body.body }),
        ...(body.entry === undefined ? {} : { entry: body.entry }),
        ...(entryFile === undefined ? {} : { entryFile }),
        ...(body.files === undefined ? {} : { files: body.files.map(fileOf) }),
      };
      const projectId = body.project_id ?? c.req.valid('query').project_id;
      const document = await (await store(projectId, body.layer)).create(draft);
      return c.json(documentView(document), 201);
    })
    .openapi(updateComponent, async (c) => {
      const { kind, name } = c.req.valid('param');
      const body = c.req.valid('json');
      const query = c.req.valid('query');
      const layer = body.layer ?? query.layer;
      if (layer === undefined) throw new ApiError('INVALID_INPUT', 'Say which layer: global or project.');
      const frontMatter = body.front_matter ?? body.frontMatter;
      const removeFiles = body.remove_files ?? body.removeFiles;
      const changes: ComponentChanges = {
        ...(frontMatter === undefined ? {} : { frontMatter }),
        ...(body.body === undefined ? {} : { body: body.body }),
        ...(body.entry === undefined ? {} : { entry: body.entry }),
        ...(body.files === undefined ? {} : { files: body.files.map(fileOf) }),
        ...(removeFiles === undefined ? {} : { removeFiles }),
      };
      const projectId = body.project_id ?? query.project_id;
      const document = await (await store(projectId, layer)).update(kind, name, layer, changes);
      return c.json(documentView(document), 200);
    })
    .openapi(deleteComponent, async (c) => {
      const { kind, name } = c.req.valid('param');
      const { layer, project_id: projectId } = c.req.valid('query');
      await (await store(projectId, layer)).delete(kind, name, layer);
      return c.body(null, 204);
    })
    .openapi(togglePlugin, async (c) => {
      const { name } = c.req.valid('param');
      const body = c.req.valid('json');
      const scope = body.scope ?? (body.project_id === undefined ? 'global' : 'project');
      await (
        await store(body.project_id, scope)
      ).setPluginEnabled(name, body.enabled ?? undefined, { scope });
      return c.body(null, 204);
    })
    .openapi(setPluginEnabled, async (c) => {
      const { name } = c.req.valid('param');
      const body = c.req.valid('json');
      const projectId = c.req.valid('query').project_id;
      const scope = body.scope ?? (projectId === undefined ? 'global' : 'project');
      await (await store(projectId, scope)).setPluginEnabled(name, body.enabled ?? undefined, { scope });
      return c.body(null, 204);
    });
}

function fileOf(file: { path: string; content: string; executable?: boolean | undefined }) {
  return {
    path: file.path,
    content: file.content,
    ...(file.executable === undefined ? {} : { executable: file.executable }),
  };
}

/** A component document without its absolute directory (the server's file layout stays private). */
function documentView(document: ComponentDocument) {
  const { directory: _directory, warnings, ...shown } = document;
  return {
    ...shown,
    warnings: warnings.map((warning) => ({
      message: warning.message,
      ...(warning.line === undefined ? {} : { line: warning.line }),
    })),
  };
}
