export { InMemorySessionStorage } from './in-memory-session-storage.ts';
export { InMemoryMemoryStorage, rankMemories } from './in-memory-memory-storage.ts';
export { summarizeRecords } from './session-summary.ts';
export type { SummaryAccumulator } from './session-summary.ts';
