import { createRoute, z } from '@hono/zod-openapi';
import { ApiError } from '../../errors/index.ts';
import {
  errorResponses,
  IdParameter,
  json,
  jsonBody,
  DefaultModelSchema,
  ModelListSchema,
  OllamaDetectionSchema,
  ProviderProbeSchema,
  ProviderCreateSchema,
  ProviderSchema,
  ProviderTestSchema,
  ProviderUpdateSchema,
} from '../schemas/index.ts';
import type { ServerServices } from '../../services/index.ts';
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

const refreshProvider = createRoute({
  method: 'post',
  path: '/providers/{id}/refresh',
  tags,
  summary:
    'Ask the provider’s server for its models again and save them (new ones added, the user’s edits kept)',
  request: { params: IdParameter },
  responses: { 200: json(ProviderSchema), ...errorResponses(404, 502) },
});

const testUnsavedProvider = createRoute({
  method: 'post',
  path: '/providers/test',
  tags,
  summary: 'Check a provider before saving it: its server’s model list',
  request: { body: jsonBody(ProviderProbeSchema) },
  responses: { 200: json(ProviderTestSchema), ...errorResponses() },
});

const detectOllama = createRoute({
  method: 'get',
  path: '/providers/detect/ollama',
  tags,
  summary: 'Whether an Ollama server answers on this machine (127.0.0.1:11434)',
  responses: { 200: json(OllamaDetectionSchema), ...errorResponses() },
});

const setDefaultModel = createRoute({
  method: 'put',
  path: '/models/default',
  tags,
  summary: 'Choose the default model (null: the first one)',
  request: { body: jsonBody(DefaultModelSchema) },
  responses: { 200: json(ModelListSchema), ...errorResponses(422) },
});

const OLLAMA_URL = 'http://127.0.0.1:11434/v1';

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
        ...(body.headers === undefined ? {} : { headers: body.headers }),
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
        ...(body.headers === undefined ? {} : { headers: body.headers }),
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
    .openapi(refreshProvider, async (c) => {
      const refreshed = await providers.refresh(c.req.valid('param').id);
      pool.invalidate();
      return c.json(refreshed, 200);
    })
    .openapi(testUnsavedProvider, async (c) => {
      const body = c.req.valid('json');
      return c.json(
        await providers.testUnsaved({
          kind: body.kind,
          base_url: body.base_url,
          ...(body.api_key === undefined ? {} : { api_key: body.api_key }),
          ...(body.headers === undefined ? {} : { headers: body.headers }),
          ...(body.name === undefined ? {} : { name: body.name }),
        }),
        200,
      );
    })
    .openapi(detectOllama, async (c) => {
      const result = await providers.testUnsaved({
        kind: 'openai-compatible',
        base_url: OLLAMA_URL,
        name: 'ollama',
      });
      return c.json(
        {
          found: result.ok,
          base_url: OLLAMA_URL,
          models: result.models.map((id) => id.replace(/^ollama\//, '')),
        },
        200,
      );
    })
    .openapi(listModels, async (c) => c.json(await modelList(services), 200))
    .openapi(setDefaultModel, async (c) => {
      const { model_id: modelId } = c.req.valid('json');
      if (modelId === null) await services.settingsService.reset({ layer: 'user' }, 'models.chat');
      else {
        if (!(await providers.models()).some((model) => model.id === modelId)) {
          throw new ApiError('MODEL_NOT_SUPPORTED', `No configured provider serves the model '${modelId}'.`, {
            details: { model_id: modelId },
          });
        }
        await services.settingsService.write({ layer: 'user' }, { 'models.chat': modelId });
      }
      return c.json(await modelList(services), 200);
    });
}

async function modelList(services: ServerServices) {
  const models = await services.providers.models();
  const preferred = await services.settings.get<string>('user', '', 'models.chat');
  const chosen =
    preferred !== undefined && models.some((model) => model.id === preferred)
      ? preferred
      : (models[0]?.id ?? null);
  return { models, default_model: chosen, default_model_id: chosen };
}
