// A separate entry (`@youyou/testing/contracts`): these suites import Vitest.
export { describeSessionStorageContract } from './session-storage-contract.ts';
export type { SessionStorageFixture } from './session-storage-contract.ts';
export { describeMemoryStorageContract } from './memory-storage-contract.ts';
export type { MemoryStorageFixture } from './memory-storage-contract.ts';
