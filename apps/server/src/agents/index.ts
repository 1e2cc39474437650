export { AgentPool } from './agent-pool.ts';
export type { AcquireOptions, AgentExtensions, AgentLease, AgentPoolOptions } from './agent-pool.ts';
export type { RunShaping } from './run-shaping.ts';
