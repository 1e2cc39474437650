import { randomUUID } from 'node:crypto';
import { createRoute, z } from '@hono/zod-openapi';
import { ApiError } from '../../errors/index.ts';
import { resolveProjectDirectory } from '../../security/index.ts';
import { projectOfRow } from '../../storage/index.ts';
import {
  errorResponses,
  IdParameter,
  json,
  jsonBody,
  ProjectCreateSchema,
  ProjectSchema,
  ProjectUpdateSchema,
} from '../schemas/index.ts';
import type { ServerServices } from '../../services/index.ts';
import { createRouter } from './router.ts';

const tags = ['projects'];

const listProjects = createRoute({
  method: 'get',
  path: '/projects',
  tags,
  summary: 'List projects',
  responses: { 200: json(z.object({ projects: z.array(ProjectSchema) })), ...errorResponses() },
});

const createProject = createRoute({
  method: 'post',
  path: '/projects',
  tags,
  summary: 'Create a project (a name and an optional workspace directory)',
  request: { body: jsonBody(ProjectCreateSchema) },
  responses: { 201: json(ProjectSchema, 'Created'), ...errorResponses(413) },
});

const getProject = createRoute({
  method: 'get',
  path: '/projects/{id}',
  tags,
  summary: 'Get a project',
  request: { params: IdParameter },
  responses: { 200: json(ProjectSchema), ...errorResponses(404) },
});

const updateProject = createRoute({
  method: 'patch',
  path: '/projects/{id}',
  tags,
  summary: 'Rename a project or change its directory',
  request: { params: IdParameter, body: jsonBody(ProjectUpdateSchema) },
  responses: { 200: json(ProjectSchema), ...errorResponses(404) },
});

const deleteProject = createRoute({
  method: 'delete',
  path: '/projects/{id}',
  tags,
  summary: 'Delete a project; with force=true also its conversations',
  request: { params: IdParameter, query: z.object({ force: z.enum(['true', 'false']).optional() }) },
  responses: { 204: { description: 'Deleted' }, ...errorResponses(404, 409) },
});

/** Projects CRUD (spec §4.3 project/session). */
export function projectRoutes(services: ServerServices) {
  const { projects, config } = services;
  const checkDirectory = async (directory: string | null | undefined): Promise<string | null> =>
    directory === null || directory === undefined
      ? null
      : resolveProjectDirectory(directory, {
          roots: config.workspaceRoots,
          dataDirectory: config.dataDirectory,
        });

  return createRouter()
    .openapi(listProjects, async (c) => c.json({ projects: (await projects.list()).map(projectOfRow) }, 200))
    .openapi(createProject, async (c) => {
      const body = c.req.valid('json');
      const row = await projects.create({
        id: randomUUID(),
        name: body.name,
        directory: await checkDirectory(body.directory),
        now: Date.now(),
      });
      return c.json(projectOfRow(row), 201);
    })
    .openapi(getProject, async (c) => c.json(projectOfRow(await projects.get(c.req.valid('param').id)), 200))
    .openapi(updateProject, async (c) => {
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      const row = await projects.update(
        id,
        {
          ...(body.name === undefined ? {} : { name: body.name }),
          ...(body.directory === undefined ? {} : { directory: await checkDirectory(body.directory) }),
        },
        Date.now(),
      );
      services.pool.invalidate();
      return c.json(projectOfRow(row), 200);
    })
    .openapi(deleteProject, async (c) => {
      const { id } = c.req.valid('param');
      await projects.get(id);
      const conversations = await projects.countConversations(id);
      if (conversations > 0 && c.req.valid('query').force !== 'true') {
        throw new ApiError(
          'CONFLICT',
          `The project has ${conversations} conversation(s); pass force=true to delete them too.`,
          {
            details: { conversations },
          },
        );
      }
      const { rows } = await services.conversations.list({ projectId: id, limit: 10_000 });
      for (const row of rows) await services.runs.stopConversation(row.id);
      await projects.delete(id);
      return c.body(null, 204);
    });
}
