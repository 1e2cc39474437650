export { ModelCatalog, toModelInfo } from './model-catalog.ts';
export type { ModelCatalogOptions } from './model-catalog.ts';
export type { ModelConfig, ModelListOptions, ModelSettings, ResolvedModel } from './model-config.ts';
