export { InMemorySessionStorage } from './in-memory-session-storage.ts';
export { InMemoryMemoryStorage, rankMemories } from './in-memory-memory-storage.ts';
export { summarizeRecords } from './session-summary.ts';
export type { SummaryAccumulator } from './session-summary.ts';
export { JsonlSessionStorage } from './jsonl-session-storage.ts';
export type { JsonlSessionStorageOptions } from './jsonl-session-storage.ts';
export { FileMemoryStorage } from './file-memory-storage.ts';
export type { FileMemoryStorageOptions } from './file-memory-storage.ts';
