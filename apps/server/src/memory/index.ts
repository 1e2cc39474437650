export {
  MemoryService,
  MEMORY_CANDIDATE_PROMPT,
  MEMORY_SETTING_KEYS,
  candidateCard,
  decisionOfAnswer,
  parseCandidates,
  type CandidateCardRaiser,
  type MemoryServiceOptions,
} from './memory-service.ts';
export { MemoryRepository, memoryItemOf, namespaceOf, scopeOfNamespace } from './memory-repository.ts';
export type { MemoryFilter, NewMemory } from './memory-repository.ts';
export { rankForInjection, termsOf } from './memory-ranking.ts';
export { registerMemorySettings, MEMORY_SETTINGS_SECTION } from './memory-settings.ts';
export { SqlMemoryStorage } from './sql-memory-storage.ts';
