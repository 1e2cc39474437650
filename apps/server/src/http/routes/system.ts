import { createRoute, z } from '@hono/zod-openapi';
import { ApiError } from '../../errors/index.ts';
import {
  errorResponses,
  HealthSchema,
  json,
  jsonBody,
  PreferencesSchema,
  SettingsSchema,
  UsageSchema,
} from '../schemas/index.ts';
import type { ServerServices } from '../../services/index.ts';
import { createRouter } from './router.ts';

/** User-layer settings by key; `default_model` is the older name of `models.chat`. */
const USER_SETTINGS = z.record(z.string(), z.unknown()).openapi('SettingsUpdate');

const health = createRoute({
  method: 'get',
  path: '/health',
  tags: ['system'],
  summary: 'Liveness, version and database',
  responses: { 200: json(HealthSchema), ...errorResponses() },
});

const getSettings = createRoute({
  method: 'get',
  path: '/settings',
  tags: ['system'],
  summary: 'Settings written at the user layer (secrets left out); see /settings/effective for every layer',
  responses: { 200: json(SettingsSchema), ...errorResponses() },
});

const putSettings = createRoute({
  method: 'patch',
  path: '/settings',
  tags: ['system'],
  summary: 'Change user-layer settings; null removes one (same checks as PUT /settings/values)',
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

const conversationUsage = createRoute({
  method: 'get',
  path: '/conversations/{id}/usage',
  tags: ['system'],
  summary: 'One conversation’s usage (its runs and their sub-agents), by model (default) or day',
  request: {
    params: z.object({ id: z.string().min(1) }),
    query: z.object({ group_by: z.enum(['day', 'model']).optional() }),
  },
  responses: { 200: json(UsageSchema), ...errorResponses(404) },
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

/** The values set at the user layer, secrets left out. */
async function userSettings(services: ServerServices): Promise<Record<string, unknown>> {
  const { settings } = await services.settingsService.effective({});
  return Object.fromEntries(
    settings
      .filter((setting) => !setting.secret && setting.set_at.includes('user'))
      .map((setting) => [setting.key, setting.value]),
  );
}

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
          max_upload_bytes: services.config.maxUploadBytes,
        },
        200,
      ),
    )
    .openapi(getSettings, async (c) => c.json(await userSettings(services), 200))
    .openapi(putSettings, async (c) => {
      const body = c.req.valid('json');
      const values: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(body))
        values[key === 'default_model' ? 'models.chat' : key] = value;
      const chat = values['models.chat'];
      if (
        typeof chat === 'string' &&
        !(await services.providers.models()).some((model) => model.id === chat)
      ) {
        throw new ApiError('MODEL_NOT_SUPPORTED', `No configured provider serves the model '${chat}'.`, {
          details: { model_id: chat },
        });
      }
      const resets = Object.entries(values)
        .filter(([, value]) => value === null)
        .map(([key]) => key);
      const writes = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== null));
      for (const key of resets) services.settingsService.registry.require(key);
      if (Object.keys(writes).length > 0) await services.settingsService.write({ layer: 'user' }, writes);
      for (const key of resets) await services.settingsService.reset({ layer: 'user' }, key);
      return c.json(await userSettings(services), 200);
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
    })
    .openapi(conversationUsage, async (c) => {
      const { id } = c.req.valid('param');
      await services.conversations.get(id);
      const groupBy = c.req.valid('query').group_by ?? 'model';
      return c.json(
        { group_by: groupBy, totals: await services.usage.totals(groupBy, { conversationId: id }) },
        200,
      );
    });
}
