export { PROVIDER_NAME_PATTERN, ProviderRegistry, guessModelKind } from './provider-registry.ts';
export type { ProviderChanges, ProviderInput, ProviderTestResult } from './provider-registry.ts';
