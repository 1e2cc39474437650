export { AgentPool } from './agent-pool.ts';
export type { AcquireOptions, AgentLease, AgentPoolOptions } from './agent-pool.ts';
export type { RunShaping } from './run-shaping.ts';
