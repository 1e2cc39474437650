// Helpers for tests and benchmarks of the server (the `@youyou/server/testing` entry).
export { seedConversation } from './seed-conversation.ts';
export type { SeedOptions } from './seed-conversation.ts';
export { settingsStack } from './settings-stack.ts';
