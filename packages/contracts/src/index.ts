/**
 * `@youyou/contracts`: the shapes the server, the web UI, the CLI and extensions share (spec
 * agent-system-skeleton-design-r4 §3.2/§3.3 "Core"). Each concept lives in its own folder with an
 * `index.ts`; this file re-exports them. It depends on zod and nothing else.
 */

/**
 * The contract's version (spec §5): fields are only added, never re-meant.
 *
 * @example
 * CONTRACTS_VERSION; // 1
 */
export const CONTRACTS_VERSION = 1;
export * from './archive/index.ts';
export * from './artifacts/index.ts';
export * from './agents/index.ts';

export * from './errors/index.ts';
export * from './runs/index.ts';
export * from './messages/index.ts';
export * from './events/index.ts';
export * from './projection/index.ts';
export * from './api/index.ts';
export * from './settings/index.ts';
export * from './profiles/index.ts';
export * from './commands/index.ts';
export * from './mcp/index.ts';
export * from './hitl/index.ts';
export * from './ui-schema/index.ts';
export * from './plan/index.ts';
export * from './tools/index.ts';
export * from './documents/index.ts';
export * from './json-schema/index.ts';
export * from './extensions/index.ts';
export * from './context/index.ts';
export * from './memory/index.ts';
export * from './retrieval/index.ts';
export * from './setup-bundle/index.ts';
