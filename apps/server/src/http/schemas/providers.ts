// The request and response bodies are the contract's (@youyou/contracts), so routes and clients cannot drift.
export {
  ProviderSchema,
  ProviderCreateSchema,
  ProviderUpdateSchema,
  ProviderTestSchema,
  ProviderProbeSchema,
  OllamaDetectionSchema,
  DefaultModelSchema,
  ModelListSchema,
} from '@youyou/contracts';
