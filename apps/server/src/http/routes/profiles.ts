import { createRoute, z } from '@hono/zod-openapi';
import {
  AgentProfileSchema,
  DocumentTemplateInfoSchema,
  ProfileFileSchema,
  ProfileFromTemplateRequestSchema,
  ProfileTemplateSchema,
  ProfileInputSchema,
  ProfilePatchSchema,
} from '@youyou/contracts';
import { ApiError } from '../../errors/index.ts';
import { documentTemplatesOf, profileTemplatesOf } from '../../extensions/index.ts';
import { planRun } from '../../runs/index.ts';
import { errorResponses, IdParameter, json, jsonBody } from '../schemas/index.ts';
import type { ServerServices } from '../../services/index.ts';
import { createRouter } from './router.ts';

const tags = ['profiles'];
const ProfileList = z.object({ profiles: z.array(AgentProfileSchema) });

const listProfiles = createRoute({
  method: 'get',
  path: '/profiles',
  tags,
  summary: 'Agent profiles: the built-in default first, then yours',
  responses: { 200: json(ProfileList), ...errorResponses() },
});
const getProfile = createRoute({
  method: 'get',
  path: '/profiles/{id}',
  tags,
  summary: 'One profile',
  request: { params: IdParameter },
  responses: { 200: json(AgentProfileSchema), ...errorResponses(404) },
});
const createProfile = createRoute({
  method: 'post',
  path: '/profiles',
  tags,
  summary: 'Create a profile (system prompt, model, parameters, tool lists, context and HITL policy, budget)',
  request: { body: jsonBody(ProfileInputSchema) },
  responses: { 201: json(AgentProfileSchema, 'Created'), ...errorResponses() },
});
const updateProfile = createRoute({
  method: 'patch',
  path: '/profiles/{id}',
  tags,
  summary: 'Change a profile; the built-in one is CONFLICT (duplicate it instead). Applies to the next run.',
  request: { params: IdParameter, body: jsonBody(ProfilePatchSchema) },
  responses: { 200: json(AgentProfileSchema), ...errorResponses(404, 409) },
});
const duplicateProfile = createRoute({
  method: 'post',
  path: '/profiles/{id}/duplicate',
  tags,
  summary: 'Copy a profile (the built-in one included)',
  request: {
    params: IdParameter,
    body: jsonBody(z.object({ name: z.string().trim().min(1).max(80).optional() })),
  },
  responses: { 201: json(AgentProfileSchema, 'Created'), ...errorResponses(404) },
});
const deleteProfile = createRoute({
  method: 'delete',
  path: '/profiles/{id}',
  tags,
  summary: 'Delete a profile; its conversations use the built-in one from then on',
  request: { params: IdParameter },
  responses: { 204: { description: 'Deleted' }, ...errorResponses(404, 409) },
});
const exportProfiles = createRoute({
  method: 'get',
  path: '/profiles/export',
  tags,
  summary: 'Your profiles (or those of `id`, repeatable) as a youyou.profile JSON file',
  request: { query: z.object({ id: z.union([z.string(), z.array(z.string())]).optional() }) },
  responses: { 200: json(ProfileFileSchema), ...errorResponses(404) },
});
const importProfiles = createRoute({
  method: 'post',
  path: '/profiles/import',
  tags,
  summary:
    'Import a youyou.profile file (or one exported profile). Checked whole first: a bad file is INVALID_INPUT with details.problems and imports nothing',
  responses: { 201: json(ProfileList, 'Imported'), ...errorResponses() },
});
const listProfileTemplates = createRoute({
  method: 'get',
  path: '/profile-templates',
  tags,
  summary: "The installed extensions' profile templates (spec §4.7), each with the profile it makes",
  responses: { 200: json(z.object({ templates: z.array(ProfileTemplateSchema) })), ...errorResponses() },
});
const profileFromTemplate = createRoute({
  method: 'post',
  path: '/profiles/from-template',
  tags,
  summary:
    'Create a profile from a profile template (under another name if given): an ordinary profile of yours from then on. An unknown template is NOT_FOUND',
  request: { body: jsonBody(ProfileFromTemplateRequestSchema) },
  responses: { 201: json(AgentProfileSchema, 'Created'), ...errorResponses(404) },
});
const listDocumentTemplates = createRoute({
  method: 'get',
  path: '/document-templates',
  tags: ['extensions'],
  summary:
    "The installed extensions' document templates: what the agent's create_from_template tool can make (Markdown or Word)",
  responses: {
    200: json(z.object({ templates: z.array(DocumentTemplateInfoSchema) })),
    ...errorResponses(),
  },
});
const conversationPlan = createRoute({
  method: 'get',
  path: '/conversations/{id}/run-plan',
  tags,
  summary:
    'What the next run of this conversation runs with: its profile, each parameter and budget and where it came from (system, user, project, profile, conversation)',
  request: { params: IdParameter },
  responses: {
    200: json(
      z.object({
        profile_id: z.string(),
        parameters: z.record(z.string(), z.unknown()),
        budget: z.record(z.string(), z.unknown()),
        tools: z.object({
          allow: z.array(z.string()),
          deny: z.array(z.string()),
          confirm: z.array(z.string()),
        }),
        context_slots: z.record(z.string(), z.object({ priority: z.number(), share: z.number().nullable() })),
        sources: z.record(z.string(), z.string()),
      }),
    ),
    ...errorResponses(404),
  },
});

/** Agent profiles (spec §4.7). */
export function profileRoutes(services: ServerServices) {
  const { profiles } = services;
  return createRouter()
    .openapi(listProfiles, async (c) => c.json({ profiles: await profiles.list() }, 200))
    .openapi(exportProfiles, async (c) => {
      const ids = c.req.valid('query').id;
      const file = await profiles.export(ids === undefined ? undefined : Array.isArray(ids) ? ids : [ids]);
      c.header('content-disposition', 'attachment; filename="youyou-profiles.json"');
      return c.json(file, 200);
    })
    .openapi(importProfiles, async (c) =>
      c.json({ profiles: await profiles.import(await c.req.text()) }, 201),
    )
    .openapi(listProfileTemplates, (c) =>
      c.json({ templates: profileTemplatesOf(services.extensions.activeExtensions()) }, 200),
    )
    .openapi(profileFromTemplate, async (c) => {
      const { template_id: templateId, name } = c.req.valid('json');
      const template = profileTemplatesOf(services.extensions.activeExtensions()).find(
        (item) => item.id === templateId,
      );
      if (template === undefined)
        throw new ApiError('NOT_FOUND', `No profile template has id '${templateId}'.`, {
          details: { resource: 'profile template', id: templateId },
        });
      return c.json(
        await profiles.create({ ...template.profile, ...(name === undefined ? {} : { name }) }),
        201,
      );
    })
    .openapi(listDocumentTemplates, (c) =>
      c.json(
        {
          templates: documentTemplatesOf(services.extensions.activeExtensions()).map(
            ({ body: _body, ...info }) => info,
          ),
        },
        200,
      ),
    )
    .openapi(getProfile, async (c) => c.json(await profiles.get(c.req.valid('param').id), 200))
    .openapi(createProfile, async (c) => c.json(await profiles.create(c.req.valid('json')), 201))
    .openapi(updateProfile, async (c) =>
      c.json(await profiles.update(c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(duplicateProfile, async (c) =>
      c.json(await profiles.duplicate(c.req.valid('param').id, c.req.valid('json').name), 201),
    )
    .openapi(deleteProfile, async (c) => {
      await profiles.delete(c.req.valid('param').id);
      return c.body(null, 204);
    })
    .openapi(conversationPlan, async (c) => {
      const conversation = await services.conversations.get(c.req.valid('param').id);
      const plan = await planRun(
        { settings: services.settingsService, profiles, routing: services.routing },
        conversation,
      );
      return c.json(
        {
          profile_id: plan.profile.id,
          parameters: { ...plan.parameters } as Record<string, unknown>,
          budget: { ...plan.budget } as Record<string, unknown>,
          tools: plan.tools,
          context_slots: Object.fromEntries(
            Object.entries(plan.contextAssembly?.slots ?? {}).filter(([, slot]) => slot !== undefined),
          ) as Record<string, { priority: number; share: number | null }>,
          sources: plan.sources,
        },
        200,
      );
    });
}
