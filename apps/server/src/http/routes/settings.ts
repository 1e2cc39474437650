import { createRoute, z } from '@hono/zod-openapi';
import {
  EffectiveSettingsResponseSchema,
  SettingDefinitionSchema,
  SettingsSectionSchema,
  type SettingValueSchema,
  SettingsWriteResultSchema,
  SettingsWriteSchema,
  WritableSettingLayerSchema,
} from '@youyou/contracts';
import { workbenchEventStream } from '../../workbench-stream/index.ts';
import { errorResponses, json, jsonBody } from '../schemas/index.ts';
import type { ServerServices } from '../../services/index.ts';
import { createRouter } from './router.ts';

const tags = ['settings'];

/**
 * The schema response for the OpenAPI document: a setting's value schema is JSON Schema itself
 * (recursive), described there as an object.
 */
const SettingsSchemaResponseSchema = z.object({
  sections: z.array(SettingsSectionSchema),
  settings: z.array(
    SettingDefinitionSchema.extend({
      schema: z
        .custom<SettingValueSchema>((value) => typeof value === 'object' && value !== null)
        .openapi({ type: 'object', description: 'A JSON Schema (type, default, minimum, maximum, enum …)' }),
    }),
  ),
});

const getSchema = createRoute({
  method: 'get',
  path: '/settings/schema',
  tags,
  summary:
    'Every setting: type, default, range, when a change takes effect, labels, layers and source (spec §4.9); the settings page is rendered from it',
  responses: { 200: json(SettingsSchemaResponseSchema), ...errorResponses() },
});

const ScopeQuery = z.object({
  project_id: z.string().min(1).max(128).optional(),
  conversation_id: z.string().min(1).max(128).optional(),
});

const getEffective = createRoute({
  method: 'get',
  path: '/settings/effective',
  tags,
  summary:
    'Each setting’s effective value for a project or conversation, with the layer it comes from; secrets only say whether one is stored',
  request: { query: ScopeQuery },
  responses: { 200: json(EffectiveSettingsResponseSchema), ...errorResponses(404) },
});

const writeValues = createRoute({
  method: 'put',
  path: '/settings/values',
  tags,
  summary: 'Write settings at one layer (validated against the schema; one bad value writes nothing)',
  request: { body: jsonBody(SettingsWriteSchema) },
  responses: { 200: json(SettingsWriteResultSchema), ...errorResponses(404) },
});

const resetValue = createRoute({
  method: 'delete',
  path: '/settings/values/{key}',
  tags,
  summary: 'Remove a setting’s value at one layer; the layer below shows through',
  request: {
    params: z.object({ key: z.string().min(1).max(120) }),
    query: z.object({ layer: WritableSettingLayerSchema, scope_id: z.string().min(1).max(128).optional() }),
  },
  responses: { 200: json(SettingsWriteResultSchema), ...errorResponses(404) },
});

const streamEvents = createRoute({
  method: 'get',
  path: '/events',
  tags: ['events'],
  summary: 'Workbench-wide events as SSE (settings.changed …); each tab keeps one open',
  responses: { 200: { description: 'text/event-stream' }, ...errorResponses() },
});

/** The settings schema, effective values, writes and resets, and the workbench event stream. */
export function settingsRoutes(services: ServerServices) {
  const { settingsService } = services;
  const effective = async (context: { projectId?: string | null; conversationId?: string | null }) => {
    const result = await settingsService.effective(context);
    return result.settings;
  };
  return createRouter()
    .openapi(getSchema, (c) =>
      c.json(
        { sections: settingsService.registry.sections(), settings: settingsService.registry.definitions() },
        200,
      ),
    )
    .openapi(getEffective, async (c) => {
      const query = c.req.valid('query');
      const result = await settingsService.effective({
        projectId: query.project_id ?? null,
        conversationId: query.conversation_id ?? null,
      });
      return c.json(
        { project_id: result.projectId, conversation_id: result.conversationId, settings: result.settings },
        200,
      );
    })
    .openapi(writeValues, async (c) => {
      const body = c.req.valid('json');
      const changed = await settingsService.write(
        { layer: body.layer, scope_id: body.scope_id },
        body.values,
      );
      const context =
        body.layer === 'project'
          ? { projectId: body.scope_id ?? null }
          : body.layer === 'conversation'
            ? { conversationId: body.scope_id ?? null }
            : {};
      return c.json({ changed, settings: await effective(context) }, 200);
    })
    .openapi(resetValue, async (c) => {
      const { key } = c.req.valid('param');
      const query = c.req.valid('query');
      const changed = await settingsService.reset({ layer: query.layer, scope_id: query.scope_id }, key);
      const context =
        query.layer === 'project'
          ? { projectId: query.scope_id ?? null }
          : query.layer === 'conversation'
            ? { conversationId: query.scope_id ?? null }
            : {};
      return c.json({ changed: [changed], settings: await effective(context) }, 200);
    })
    .openapi(
      streamEvents,
      () =>
        new Response(workbenchEventStream(services.workbenchStream, services.config.heartbeatMs), {
          status: 200,
          headers: {
            'content-type': 'text/event-stream; charset=utf-8',
            'cache-control': 'no-store',
            'x-accel-buffering': 'no',
          },
        }),
    );
}
