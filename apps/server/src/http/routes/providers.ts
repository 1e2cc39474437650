import { createRoute, z } from '@hono/zod-openapi';
import {
  errorResponses,
  IdParameter,
  json,
  jsonBody,
  ModelListSchema,
  ProviderCreateSchema,
  ProviderSchema,
  ProviderTestSchema,
  ProviderUpdateSchema,
} from '../schemas/index.ts';
import type { ServerServices } from '../services.ts';
import { createRouter } from './router.ts';

const tags = ['providers'];

const listProviders = createRoute({
  method: 'get',
  path: '/providers',
  tags,
  summary: 'List model providers (keys are never returned)',
  responses: { 200: json(z.object({ providers: z.array(ProviderSchema) })), ...errorResponses() },
});

const createProvider = createRoute({
  method: 'post',
  path: '/providers',
  tags,
  summary: 'Add an OpenAI-compatible or Anthropic provider; its key is stored as a secret',
  request: { body: jsonBody(ProviderCreateSchema) },
  responses: { 201: json(ProviderSchema, 'Created'), ...errorResponses(409) },
});

const getProvider = createRoute({
  method: 'get',
  path: '/providers/{id}',
  tags,
  summary: 'A provider',
  request: { params: IdParameter },
  responses: { 200: json(ProviderSchema), ...errorResponses(404) },
});

const updateProvider = createRoute({
  method: 'patch',
  path: '/providers/{id}',
  tags,
  summary: 'Change a provider; `api_key: null` removes its key',
  request: { params: IdParameter, body: jsonBody(ProviderUpdateSchema) },
  responses: { 200: json(ProviderSchema), ...errorResponses(404, 409) },
});

const deleteProvider = createRoute({
  method: 'delete',
  path: '/providers/{id}',
  tags,
  summary: 'Remove a provider and its key',
  request: { params: IdParameter },
  responses: { 204: { description: 'Deleted' }, ...errorResponses(404) },
});

const testProvider = createRoute({
  method: 'post',
  path: '/providers/{id}/test',
  tags,
  summary: 'Ask the provider’s server for its models, to check the URL and the key',
  request: { params: IdParameter },
  responses: { 200: json(ProviderTestSchema), ...errorResponses(404) },
});

const listModels = createRoute({
  method: 'get',
  path: '/models',
  tags,
  summary: 'Every model of every enabled provider, and the default',
  responses: { 200: json(ModelListSchema), ...errorResponses() },
});

/** Model providers and models (spec §4.7). */
export function providerRoutes(services: ServerServices) {
  const { providers, pool } = services;
  return createRouter()
    .openapi(listProviders, async (c) => c.json({ providers: await providers.list() }, 200))
    .openapi(createProvider, async (c) => {
      const body = c.req.valid('json');
      const created = await providers.create({
        name: body.name,
        kind: body.kind,
        base_url: body.base_url,
        ...(body.api_key === undefined ? {} : { api_key: body.api_key }),
        ...(body.models === undefined ? {} : { models: body.models }),
        ...(body.enabled === undefined ? {} : { enabled: body.enabled }),
      });
      pool.invalidate();
      return c.json(created, 201);
    })
    .openapi(getProvider, async (c) => c.json(await providers.get(c.req.valid('param').id), 200))
    .openapi(updateProvider, async (c) => {
      const body = c.req.valid('json');
      const updated = await providers.update(c.req.valid('param').id, {
        ...(body.name === undefined ? {} : { name: body.name }),
        ...(body.base_url === undefined ? {} : { base_url: body.base_url }),
        ...(body.api_key === undefined ? {} : { api_key: body.api_key }),
        ...(body.models === undefined ? {} : { models: body.models }),
        ...(body.enabled === undefined ? {} : { enabled: body.enabled }),
      });
      pool.invalidate();
      return c.json(updated, 200);
    })
    .openapi(deleteProvider, async (c) => {
      await providers.delete(c.req.valid('param').id);
      pool.invalidate();
      return c.body(null, 204);
    })
    .openapi(testProvider, async (c) => c.json(await providers.test(c.req.valid('param').id), 200))
    .openapi(listModels, async (c) => {
      const models = await providers.models();
      const preferred = await services.settings.get<string>('user', '', 'default_model');
      return c.json({ models, default_model: preferred ?? models[0]?.id ?? null }, 200);
    });
}
