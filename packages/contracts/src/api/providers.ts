import { z } from 'zod';
import { IsoDateSchema } from '../runs/index.ts';

/** The wire formats a provider speaks. */
export const ProviderKindSchema = z.enum(['openai-compatible', 'anthropic']);

/**
 * Extra HTTP headers a provider sends on every request (a gateway's `HTTP-Referer`, an
 * organisation header). Values are shown back: a key belongs in `api_key`, which never is.
 *
 * @example
 * ProviderHeadersSchema.parse({ 'OpenAI-Organization': 'org-123' });
 */
export const ProviderHeadersSchema = z
  .record(
    z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/, 'an HTTP header name'),
    z.string().max(8192),
  )
  .refine((headers) => Object.keys(headers).length <= 32, 'at most 32 headers')
  .meta({ id: 'ProviderHeaders' });

/** What a model is for: only `chat` models are offered in the model pickers (spec §4.7). */
export const ProviderModelKindSchema = z.enum(['chat', 'embedding', 'rerank']);

export const ModelCapabilitiesSchema = z
  .object({
    vision: z.boolean().optional(),
    tools: z.boolean().optional(),
    reasoning: z.boolean().optional(),
    documents: z.boolean().optional(),
  })
  .meta({ id: 'ModelCapabilities' });

/**
 * What a model costs, in US dollars per million tokens (spec §4.17). Cached input is billed at
 * `cache_read` (default: `input`), input written to the cache at `cache_write` (default: `input`).
 *
 * @example
 * ModelPricingSchema.parse({ input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 });
 */
export const ModelPricingSchema = z
  .object({
    input: z.number().nonnegative().max(1_000_000),
    output: z.number().nonnegative().max(1_000_000),
    cache_read: z.number().nonnegative().max(1_000_000).optional(),
    cache_write: z.number().nonnegative().max(1_000_000).optional(),
  })
  .meta({ id: 'ModelPricing' });
export type ModelPricing = z.infer<typeof ModelPricingSchema>;

export const ProviderModelSchema = z
  .object({
    id: z.string().min(1).max(200),
    display_name: z.string().max(200).optional(),
    name: z.string().max(200).optional().meta({ description: 'Same as display_name.' }),
    context_window: z.number().int().positive().optional(),
    max_output_tokens: z.number().int().positive().optional(),
    capabilities: ModelCapabilitiesSchema.optional(),
    kind: ProviderModelKindSchema.optional().meta({
      description: 'Guessed from the id when discovered; chat when unset.',
    }),
    hidden: z
      .boolean()
      .optional()
      .meta({ description: 'Kept on the provider but not offered in the pickers.' }),
    discovered: z
      .boolean()
      .optional()
      .meta({ description: 'Listed by the provider’s server (refresh keeps the user’s edits).' }),
    pricing: ModelPricingSchema.optional().meta({
      description: 'US dollars per million tokens; the usage page shows cost from it.',
    }),
  })
  .meta({ id: 'ProviderModel' });

export const ProviderSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: ProviderKindSchema,
    base_url: z.string(),
    has_api_key: z.boolean().meta({ description: 'Keys are stored as secrets and never returned.' }),
    headers: ProviderHeadersSchema.optional().meta({ description: 'Absent from servers before 0.3.' }),
    models: z.array(ProviderModelSchema),
    enabled: z.boolean(),
    created_at: IsoDateSchema,
    updated_at: IsoDateSchema,
  })
  .meta({ id: 'Provider' });

export const ProviderCreateSchema = z
  .object({
    name: z.string().min(1).max(40),
    kind: ProviderKindSchema,
    base_url: z.string().min(1).max(2000),
    api_key: z.string().max(10_000).optional(),
    headers: ProviderHeadersSchema.optional(),
    models: z.array(ProviderModelSchema).max(500).optional(),
    enabled: z.boolean().optional(),
  })
  .meta({ id: 'ProviderCreate' });

export const ProviderUpdateSchema = z
  .object({
    name: z.string().min(1).max(40).optional(),
    base_url: z.string().min(1).max(2000).optional(),
    api_key: z.string().max(10_000).nullable().optional(),
    headers: ProviderHeadersSchema.optional().meta({ description: 'Replaces the headers; {} removes them.' }),
    models: z.array(ProviderModelSchema).max(500).optional(),
    enabled: z.boolean().optional(),
  })
  .meta({ id: 'ProviderUpdate' });

export const ProviderTestSchema = z
  .object({
    ok: z.boolean(),
    models: z.array(z.string()),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
    latency_ms: z.number(),
  })
  .meta({ id: 'ProviderTest' });

export const ProviderProbeSchema = z
  .object({
    kind: ProviderKindSchema,
    base_url: z.string().min(1).max(2000),
    api_key: z.string().max(10_000).optional(),
    headers: ProviderHeadersSchema.optional(),
    name: z.string().max(40).optional(),
  })
  .meta({ id: 'ProviderProbe' });

export const OllamaDetectionSchema = z
  .object({ found: z.boolean(), base_url: z.string(), models: z.array(z.string()) })
  .meta({ id: 'OllamaDetection' });

export const DefaultModelSchema = z
  .object({ model_id: z.string().min(1).max(200).nullable() })
  .meta({ id: 'DefaultModel' });

/** A model the user can pick: `provider/model` as the agent routes it. */
export const ModelOptionSchema = z.object({
  id: z.string(),
  provider: z.string(),
  display_name: z.string(),
  provider_id: z.string(),
  provider_name: z.string(),
  name: z.string(),
  context_window: z.number().int().positive().optional(),
  capabilities: ModelCapabilitiesSchema.optional().meta({ description: 'Absent from servers before 0.2.' }),
});

export const ModelListSchema = z
  .object({
    models: z.array(ModelOptionSchema),
    default_model: z.string().nullable(),
    default_model_id: z.string().nullable().meta({ description: 'Same as default_model.' }),
  })
  .meta({ id: 'ModelList' });

export type ProviderHeaders = z.infer<typeof ProviderHeadersSchema>;
export type ProviderKind = z.infer<typeof ProviderKindSchema>;
export type ProviderModelKind = z.infer<typeof ProviderModelKindSchema>;
export type ModelCapabilityFlags = z.infer<typeof ModelCapabilitiesSchema>;
export type ProviderModel = z.infer<typeof ProviderModelSchema>;
export type Provider = z.infer<typeof ProviderSchema>;
export type ProviderCreate = z.infer<typeof ProviderCreateSchema>;
export type ProviderUpdate = z.infer<typeof ProviderUpdateSchema>;
export type ProviderTest = z.infer<typeof ProviderTestSchema>;
export type ProviderProbe = z.infer<typeof ProviderProbeSchema>;
export type OllamaDetection = z.infer<typeof OllamaDetectionSchema>;
export type DefaultModel = z.infer<typeof DefaultModelSchema>;
export type ModelOption = z.infer<typeof ModelOptionSchema>;
export type ModelList = z.infer<typeof ModelListSchema>;
