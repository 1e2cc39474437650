export { AgentPool } from './agent-pool.ts';
export type { AgentLease, AgentPoolOptions } from './agent-pool.ts';
