import { z } from '@hono/zod-openapi';
import { ISODate } from './common.ts';

const ModelSchema = z
  .object({
    id: z.string().min(1).max(200),
    display_name: z.string().max(200).optional(),
    name: z.string().max(200).optional().openapi({ description: 'Same as display_name.' }),
    context_window: z.number().int().positive().optional(),
    max_output_tokens: z.number().int().positive().optional(),
    capabilities: z
      .object({
        vision: z.boolean().optional(),
        tools: z.boolean().optional(),
        reasoning: z.boolean().optional(),
        documents: z.boolean().optional(),
      })
      .optional(),
  })
  .openapi('ProviderModel');

export const ProviderSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z.enum(['openai-compatible', 'anthropic']),
    base_url: z.string(),
    has_api_key: z.boolean().openapi({ description: 'Keys are stored as secrets and never returned.' }),
    models: z.array(ModelSchema),
    enabled: z.boolean(),
    created_at: ISODate,
    updated_at: ISODate,
  })
  .openapi('Provider');

export const ProviderCreateSchema = z
  .object({
    name: z.string().min(1).max(40),
    kind: z.enum(['openai-compatible', 'anthropic']),
    base_url: z.string().min(1).max(2000),
    api_key: z.string().max(10_000).optional(),
    models: z.array(ModelSchema).max(500).optional(),
    enabled: z.boolean().optional(),
  })
  .openapi('ProviderCreate');

export const ProviderUpdateSchema = z
  .object({
    name: z.string().min(1).max(40).optional(),
    base_url: z.string().min(1).max(2000).optional(),
    api_key: z.string().max(10_000).nullable().optional(),
    models: z.array(ModelSchema).max(500).optional(),
    enabled: z.boolean().optional(),
  })
  .openapi('ProviderUpdate');

export const ProviderTestSchema = z
  .object({
    ok: z.boolean(),
    models: z.array(z.string()),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
    latency_ms: z.number(),
  })
  .openapi('ProviderTest');

export const ProviderProbeSchema = z
  .object({
    kind: z.enum(['openai-compatible', 'anthropic']),
    base_url: z.string().min(1).max(2000),
    api_key: z.string().max(10_000).optional(),
    name: z.string().max(40).optional(),
  })
  .openapi('ProviderProbe');

export const OllamaDetectionSchema = z
  .object({ found: z.boolean(), base_url: z.string(), models: z.array(z.string()) })
  .openapi('OllamaDetection');

export const DefaultModelSchema = z
  .object({ model_id: z.string().min(1).max(200).nullable() })
  .openapi('DefaultModel');

export const ModelListSchema = z
  .object({
    models: z.array(
      z.object({
        id: z.string(),
        provider: z.string(),
        display_name: z.string(),
        provider_id: z.string(),
        provider_name: z.string(),
        name: z.string(),
      }),
    ),
    default_model: z.string().nullable(),
    default_model_id: z.string().nullable().openapi({ description: 'Same as default_model.' }),
  })
  .openapi('ModelList');
