import { z } from '@hono/zod-openapi';
import { ComponentKindSchema } from '@youyou/contracts';

// The request and response bodies are the contract's (@youyou/contracts), so routes and clients cannot drift.
export {
  ComponentKindSchema,
  FileLayerSchema,
  ComponentEntrySchema,
  ComponentListSchema,
  ComponentDocumentSchema,
  ComponentCreateSchema,
  ComponentUpdateSchema,
  PluginToggleSchema,
  PluginEnabledSchema,
  OptionalLocationQuerySchema as OptionalLocationQuery,
  ComponentLocationQuerySchema as ComponentLocationQuery,
} from '@youyou/contracts';

export const ComponentPathParameters = z.object({
  kind: z.enum(ComponentKindSchema.options).openapi({ param: { name: 'kind', in: 'path' } }),
  name: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'name', in: 'path' } }),
});
