export { PROVIDER_NAME_PATTERN, ProviderRegistry } from './provider-registry.ts';
export type { ModelOption, ProviderChanges, ProviderInput, ProviderTestResult } from './provider-registry.ts';
