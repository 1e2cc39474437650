import { createRoute, z } from '@hono/zod-openapi';
import { ApiError } from '../../errors/index.ts';
import {
  errorResponses,
  HealthSchema,
  json,
  jsonBody,
  PreferencesSchema,
  SettingsSchema,
  SettingsSchemaSchema,
  UsageSchema,
} from '../schemas/index.ts';
import type { ServerServices } from '../services.ts';
import { createRouter } from './router.ts';

/** User settings the API accepts, with their checks (spec §4.9 grows this list). */
const USER_SETTINGS = z
  .object({ default_model: z.string().min(1).max(200).nullable().optional() })
  .strict()
  .openapi('SettingsUpdate');

const health = createRoute({
  method: 'get',
  path: '/health',
  tags: ['system'],
  summary: 'Liveness, version and database',
  responses: { 200: json(HealthSchema), ...errorResponses() },
});

/** The settings there are, with when a change takes effect (spec §4.9). */
const SETTINGS_SCHEMA = [
  {
    key: 'default_model',
    type: 'string' as const,
    default: null,
    effect: 'new-run' as const,
    description: 'The model a conversation without its own uses; runs already going keep theirs.',
  },
  {
    key: 'preferences',
    type: 'object' as const,
    default: {},
    effect: 'hot' as const,
    description: 'Interface preferences of the web app (layout, theme, behaviour), kept for every browser.',
  },
];

const getSettingsSchema = createRoute({
  method: 'get',
  path: '/settings/schema',
  tags: ['system'],
  summary: 'Every setting: its type, default and when a change takes effect',
  responses: { 200: json(SettingsSchemaSchema), ...errorResponses() },
});

const getSettings = createRoute({
  method: 'get',
  path: '/settings',
  tags: ['system'],
  summary: 'User settings',
  responses: { 200: json(SettingsSchema), ...errorResponses() },
});

const putSettings = createRoute({
  method: 'patch',
  path: '/settings',
  tags: ['system'],
  summary: 'Change user settings; null removes one',
  request: { body: jsonBody(USER_SETTINGS) },
  responses: { 200: json(SettingsSchema), ...errorResponses(422) },
});

const usage = createRoute({
  method: 'get',
  path: '/usage',
  tags: ['system'],
  summary: 'Token, time and tool-call totals by day, model, conversation or project',
  request: { query: z.object({ group_by: z.enum(['day', 'model', 'conversation', 'project']).optional() }) },
  responses: { 200: json(UsageSchema), ...errorResponses() },
});

const getPreferences = createRoute({
  method: 'get',
  path: '/preferences',
  tags: ['system'],
  summary: 'Interface preferences (spec §4.15), as the web app stored them',
  responses: { 200: json(PreferencesSchema), ...errorResponses() },
});

const putPreferences = createRoute({
  method: 'put',
  path: '/preferences',
  tags: ['system'],
  summary: 'Replace the interface preferences',
  request: { body: jsonBody(PreferencesSchema) },
  responses: { 200: json(PreferencesSchema), ...errorResponses(413) },
});

/** Health, settings, preferences, usage. */
export function systemRoutes(services: ServerServices) {
  const { settings } = services;
  return createRouter()
    .openapi(health, (c) =>
      c.json(
        {
          status: 'ok' as const,
          ok: true as const,
          version: services.version,
          database: services.database.dialect,
          instance_id: services.instanceId,
          uptime_ms: Date.now() - services.startedAt,
          active_runs: services.runs.activeRunIds.length,
        },
        200,
      ),
    )
    .openapi(getSettingsSchema, (c) => c.json({ settings: SETTINGS_SCHEMA }, 200))
    .openapi(getSettings, async (c) => c.json(await settings.all('user', ''), 200))
    .openapi(putSettings, async (c) => {
      const body = c.req.valid('json');
      if (body.default_model === null) await settings.remove('user', '', 'default_model');
      else if (body.default_model !== undefined) {
        const models = await services.providers.models();
        if (!models.some((model) => model.id === body.default_model)) {
          throw new ApiError(
            'MODEL_NOT_SUPPORTED',
            `No configured provider serves the model '${body.default_model}'.`,
            {
              details: { model_id: body.default_model },
            },
          );
        }
        await settings.set('user', '', 'default_model', body.default_model);
      }
      return c.json(await settings.all('user', ''), 200);
    })
    .openapi(getPreferences, async (c) =>
      c.json(
        { preferences: (await settings.get<Record<string, unknown>>('user', '', 'preferences')) ?? {} },
        200,
      ),
    )
    .openapi(putPreferences, async (c) => {
      const { preferences } = c.req.valid('json');
      await settings.set('user', '', 'preferences', preferences);
      return c.json({ preferences }, 200);
    })
    .openapi(usage, async (c) => {
      const groupBy = c.req.valid('query').group_by ?? 'day';
      return c.json({ group_by: groupBy, totals: await services.usage.totals(groupBy) }, 200);
    });
}
