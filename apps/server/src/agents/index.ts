export { AgentPool } from './agent-pool.ts';
export type { AgentExtensions, AgentLease, AgentPoolOptions } from './agent-pool.ts';
